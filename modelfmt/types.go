package modelfmt

// Card describes a model for people: what it was trained on, how, when, and
// how well it scores. It is stored inside the model file and printed by
// `transparse inspect`. Its strings must be valid UTF-8 without control
// characters (Notes may hold tabs and line feeds); see Model.Validate.
type Card struct {
	Name      string            `msgpack:"name"`       // model name, e.g. "en_ewt-arc-eager"
	Treebank  string            `msgpack:"treebank"`   // e.g. "UD_English-EWT (en_ewt-ud-train.conllu)"
	System    string            `msgpack:"system"`     // transition system name, e.g. "arc-eager"
	Options   map[string]string `msgpack:"options"`    // training options, as given
	TrainedAt string            `msgpack:"trained_at"` // RFC 3339 UTC
	Version   string            `msgpack:"version"`    // transparse version that trained the model
	// Scores maps "<split>/<tags>/<metric>" (for example "dev/gold/LAS",
	// "test/predicted/UPOS") to a percentage.
	Scores map[string]float64 `msgpack:"scores"`
	Notes  string             `msgpack:"notes"` // free text
}

// Classifier is one linear classifier: feature templates, class names and
// weights. Its layout is owned by the package that wrote it (parser/linear);
// modelfmt stores the blobs as opaque little-endian byte strings and checks
// only their presence and sizes through the accessors in blob.go.
//
// Name and Layout must not be empty, and Names are unique within a Model.
type Classifier struct {
	Name      string            `msgpack:"name"`      // unique within the Model, e.g. "parser.gold"
	Templates []string          `msgpack:"templates"` // feature template descriptions
	Classes   []string          `msgpack:"classes"`   // class names, in class-id order
	Layout    string            `msgpack:"layout"`    // e.g. "sparse-rows/v1"; names the owner of Params and Blobs
	Params    map[string]int64  `msgpack:"params"`    // small integer settings of the layout
	Blobs     map[string][]byte `msgpack:"blobs"`     // raw little-endian arrays
}

// Model is the whole msgpack document of a model file.
//
// System must not be empty. In a Model returned by Decode or ReadFile the
// Blobs of all Classifiers are sub-slices of one buffer, the decompressed
// document, which stays in memory while any of them is referenced. Each
// blob's capacity equals its length, so appending to one never overwrites
// another.
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
