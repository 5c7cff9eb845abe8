package modelfmt

// Card describes a model for people: what it was trained on, how, when, and
// how well it scores. It is stored inside the model file and printed by
// `transparse inspect`.
type Card struct {
	Name      string            `msgpack:"name"`
	Treebank  string            `msgpack:"treebank"`   // e.g. "UD_English-EWT (en_ewt-ud-train.conllu)"
	System    string            `msgpack:"system"`     // transition system name, e.g. "arc-eager"
	Options   map[string]string `msgpack:"options"`    // training options, as given
	TrainedAt string            `msgpack:"trained_at"` // RFC 3339 UTC
	Version   string            `msgpack:"version"`    // transparse version that trained the model
	// Scores maps "<split>/<tags>/<metric>" (for example "dev/gold/LAS",
	// "test/predicted/UPOS") to a percentage.
	Scores map[string]float64 `msgpack:"scores"`
	Notes  string             `msgpack:"notes"`
}

// Classifier is one linear classifier: feature templates, class names and
// weights. Its layout is owned by the package that wrote it (parser/linear);
// modelfmt stores the blobs as opaque little-endian byte strings and checks
// only their presence and sizes through the accessors in blob.go.
type Classifier struct {
	Name      string            `msgpack:"name"`
	Templates []string          `msgpack:"templates"`
	Classes   []string          `msgpack:"classes"`
	Layout    string            `msgpack:"layout"` // e.g. "sparse-rows/v1"
	Params    map[string]int64  `msgpack:"params"`
	Blobs     map[string][]byte `msgpack:"blobs"` // raw little-endian arrays
}

// Model is the whole msgpack document of a model file.
type Model struct {
	Card Card `msgpack:"card"`
	// System is the transition system name and its options.
	System        string            `msgpack:"system"`
	SystemOptions map[string]string `msgpack:"system_options"`
	// Strings holds string tables (label set, tag sets, vocabularies), by name.
	Strings map[string][]string `msgpack:"strings"`
	// Params holds small integer settings by name.
	Params map[string]int64 `msgpack:"params"`
	// Classifiers holds the tagger and parser classifiers, by name.
	Classifiers []Classifier `msgpack:"classifiers"`
}
