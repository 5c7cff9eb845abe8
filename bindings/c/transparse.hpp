// transparse.hpp -- header-only C++ wrapper over the transparse C API.
//
//   #include <transparse.hpp>
//
// Installed (./build.sh install, or the libtransparse-dev package), it sits
// next to transparse.h in the include directory: `pkg-config --cflags --libs
// transparse`, or CMake's find_package(transparse) with the target
// transparse::transparse, give the flags. From an uninstalled build tree,
// add -I<repo>/bindings/c to the flags of lib/pkgconfig/transparse.pc.
//
//   auto model = transparse::Model::load("en_ewt.tpm");
//   transparse::Result r = model.parse({"I", "saw", "her", "."});
//   for (std::size_t i = 0; i < r.size(); ++i)
//       std::cout << r.head(i) << ' ' << r.deprel(i) << '\n';
//
// Errors are thrown as transparse::Error (a std::runtime_error) carrying the
// library's status code and message. Model and Result are move-only RAII
// owners of a tp_model / tp_result. Requires C++11.
//
// Lifetimes: the strings a Result or BatchResult returns (deprel, upos,
// xpos, lemma, feats) belong to the model's label and tag tables or to the
// tp_result. A result made by
// Model::parse or parse_batch shares the ownership of its tp_model, so they
// stay valid as long as the result is alive, even after the Model object is
// gone: `Model::load(path).parse(words)` is safe. The tp_model is freed
// when the Model and every result made from it are gone. (A Result built
// directly from a tp_result * owns only that.)
//
// Thread safety: a Model may be used by many threads at once (parse,
// parse_batch, parse_document and stream are const). Results are
// independent objects; a Stream belongs to one thread at a time.
//
// One method per job, as in the C API: parse (one sentence), parse_batch
// (many), parse_document (a CoNLL-U or pre-tokenized document), stream (a
// document sentence by sentence), each taking one Options.
//
// A beam, confidences and the k best trees (docs/beam-search.md):
//
//   transparse::Options o;
//   o.beam = 8; o.kbest = 4; o.confidence = true;
//   transparse::Result r = model.parse({"I", "saw", "her", "."}, o);
//   r.confidence(0); r.trees(); r.tree_head(1, 0);
#ifndef TRANSPARSE_HPP
#define TRANSPARSE_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <transparse.h>

namespace transparse {

// Error is a failed call: code() is a tp_status (TP_ERR_*), what() the message.
class Error : public std::runtime_error {
public:
    Error(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
    int code() const noexcept { return code_; }

private:
    int code_;
};

namespace detail {
// check throws Error for a failed call, taking ownership of err. Call it
// only after the call that sets err (never as check(tp_x(&err), err):
// argument evaluation order is unspecified).
inline void check(int rc, tp_error *err) {
    if (rc == TP_OK) {
        tp_error_free(err);
        return;
    }
    std::string msg = err ? tp_error_message(err) : tp_status_name(rc);
    int code = err ? tp_error_code(err) : rc;
    tp_error_free(err);
    throw Error(code, msg);
}

// ModelFree frees a tp_model when its last owner (a Model or a result made
// from it) is gone.
struct ModelFree {
    void operator()(tp_model *m) const noexcept { tp_model_free(m); }
};
typedef std::shared_ptr<tp_model> ModelRef;

// take_string returns the library's string s of len bytes and frees it.
inline std::string take_string(char *s, std::size_t len) {
    std::string out(s, len);
    tp_string_free(s);
    return out;
}

inline std::vector<const char *> c_strings(const std::vector<std::string> &v) {
    std::vector<const char *> out;
    out.reserve(v.size());
    for (const std::string &s : v)
        out.push_back(s.c_str());
    return out;
}
} // namespace detail

// version returns the runtime library version ("0.2.0").
inline std::string version() { return tp_version(); }

// Tags are optional per-word annotations: an empty vector means the column is
// absent; an empty string or "_" means absent for that word. space_after,
// when not empty, says for each word whether whitespace follows it in the
// text (false: CoNLL-U's SpaceAfter=No; see tp_options.space_after).
struct Tags {
    std::vector<std::string> upos, xpos, feats, lemma;
    std::vector<bool> space_after;
};

// Options choose how Model::parse, parse_batch, parse_document and stream
// parse (see tp_options). Sentence members: beam is the beam width K, up
// to TP_MAX_BEAM (1: the greedy parser; 0: the model's default width,
// Model::default_beam(), 1 for a model without classifiers trained for the
// beam), kbest the number of trees asked for (0 to the beam width),
// confidence asks for a confidence per word, temperature (0: the
// library's default) scales the confidences, accurate asks for the
// revote of the beam's and the greedy parser's trees (tp_options.accurate;
// about the beam's time plus a greedy parse). Document members (for
// parse_document and stream): input (TP_INPUT_CONLLU, TP_INPUT_TOKENS or
// TP_INPUT_TEXT), on_error (TP_ON_ERROR_STOP or TP_ON_ERROR_SKIP),
// no_tags, threads (parse_document only); for raw text (TP_INPUT_TEXT)
// presegmented (one sentence a line), ranges (TP_RANGES_NONE,
// TP_RANGES_BYTES or TP_RANGES_CODEPOINTS: TokenRange=START:END in MISC)
// and tokenize_only (segment without tagging or parsing). Bad values throw
// Error with TP_ERR_ARGUMENT from the parse.
struct Options {
    int beam = 0;
    int kbest = 0;
    bool confidence = false;
    double temperature = 0;
    int input = TP_INPUT_CONLLU;
    int on_error = TP_ON_ERROR_STOP;
    bool no_tags = false;
    int threads = 0;
    bool presegmented = false;
    int ranges = TP_RANGES_NONE;
    bool tokenize_only = false;
    bool accurate = false;

    tp_options to_c() const {
        tp_options o = TP_OPTIONS_INIT;
        o.beam = beam;
        o.kbest = kbest;
        o.confidence = confidence ? 1 : 0;
        o.temperature = temperature;
        o.input = input;
        o.on_error = on_error;
        o.no_tags = no_tags ? 1 : 0;
        o.threads = threads;
        o.presegmented = presegmented ? 1 : 0;
        o.ranges = ranges;
        o.tokenize_only = tokenize_only ? 1 : 0;
        o.accurate = accurate ? 1 : 0;
        return o;
    }
};

// Result is one parsed sentence (owns a tp_result, and shares the
// ownership of the tp_model its strings belong to).
class Result {
public:
    Result() noexcept : r_(nullptr) {}
    explicit Result(tp_result *r) noexcept : r_(r) {}
    // Result(r, model) also keeps model alive while the Result is.
    Result(tp_result *r, detail::ModelRef model) noexcept : r_(r), model_(std::move(model)) {}
    Result(Result &&o) noexcept : r_(o.r_), model_(std::move(o.model_)) { o.r_ = nullptr; }
    Result &operator=(Result &&o) noexcept {
        if (this != &o) {
            tp_result_free(r_);
            r_ = o.r_;
            o.r_ = nullptr;
            model_ = std::move(o.model_);
        }
        return *this;
    }
    Result(const Result &) = delete;
    Result &operator=(const Result &) = delete;
    ~Result() { tp_result_free(r_); }

    std::size_t size() const noexcept { return r_ ? r_->n_words : 0; }
    // head(i): 1-based head of word i (0-based), 0 for the root.
    int head(std::size_t i) const { return r_->heads[at(i)]; }
    const char *deprel(std::size_t i) const { return r_->deprels[at(i)]; }
    const char *upos(std::size_t i) const { return r_->upos[at(i)]; }
    const char *xpos(std::size_t i) const { return r_->xpos[at(i)]; }
    // lemma(i), feats(i): LEMMA and FEATS ("Number=Sing|Person=3") of word
    // i, as given in Tags, else predicted by the model, else "_" (see
    // tp_result in transparse.h).
    const char *lemma(std::size_t i) const { return r_->lemma[at(i)]; }
    const char *feats(std::size_t i) const { return r_->feats[at(i)]; }
    // has_confidence tells whether the parse was asked for confidences
    // (Options::confidence); confidence(i) is word i's, in [0, 1]
    // (see tp_options), and throws std::logic_error when not asked.
    bool has_confidence() const noexcept { return r_ && r_->confidence; }
    double confidence(std::size_t i) const {
        if (!has_confidence())
            throw std::logic_error("transparse::Result: no confidences (Options::confidence)");
        return r_->confidence[at(i)];
    }
    // trees is the number of the k best trees (Options::kbest; 0 when
    // not asked), best first: tree 0 is the tree of head() and deprel().
    // tree_head(t, i) and tree_deprel(t, i) are word i's in tree t,
    // tree_score(t) its score (comparable within the sentence only).
    std::size_t trees() const noexcept { return r_ ? r_->n_trees : 0; }
    int tree_head(std::size_t t, std::size_t i) const { return r_->tree_heads[tree(t) * size() + at(i)]; }
    const char *tree_deprel(std::size_t t, std::size_t i) const {
        return r_->tree_deprels[tree(t) * size() + at(i)];
    }
    double tree_score(std::size_t t) const { return r_->tree_scores[tree(t)]; }
    const tp_result *get() const noexcept { return r_; }

private:
    std::size_t at(std::size_t i) const {
        if (i >= size())
            throw std::out_of_range("transparse::Result: index out of range");
        return i;
    }
    std::size_t tree(std::size_t t) const {
        if (t >= trees())
            throw std::out_of_range("transparse::Result: tree index out of range");
        return t;
    }
    tp_result *r_;
    detail::ModelRef model_; // declared after r_: destroyed before it, freed after the result
};

// BatchResult is the parse of a batch of sentences (Model::parse_batch;
// owns one tp_result for all of them, and shares the ownership of the
// tp_model, as Result does). With Options, sentence k has what a
// Result of Model::parse with the same options has: confidence(k, i),
// trees(k) (its own number of trees, at most kbest), tree_head(k, t, i),
// tree_deprel(k, t, i) and tree_score(k, t) (see tp_parse_batch).
class BatchResult {
public:
    BatchResult(tp_result *r, std::vector<std::size_t> offsets) noexcept : r_(r), offs_(std::move(offsets)) {}
    BatchResult(tp_result *r, std::vector<std::size_t> offsets, detail::ModelRef model) noexcept
        : r_(r), offs_(std::move(offsets)), model_(std::move(model)) {}
    BatchResult(BatchResult &&o) noexcept : r_(o.r_), offs_(std::move(o.offs_)), model_(std::move(o.model_)) {
        o.r_ = nullptr;
    }
    BatchResult &operator=(BatchResult &&o) noexcept {
        if (this != &o) {
            tp_result_free(r_);
            r_ = o.r_;
            offs_ = std::move(o.offs_);
            o.r_ = nullptr;
            model_ = std::move(o.model_);
        }
        return *this;
    }
    BatchResult(const BatchResult &) = delete;
    BatchResult &operator=(const BatchResult &) = delete;
    ~BatchResult() { tp_result_free(r_); }

    // size is the number of sentences; size(k) the words of sentence k.
    std::size_t size() const noexcept { return offs_.empty() ? 0 : offs_.size() - 1; }
    std::size_t size(std::size_t k) const { return offs_[sent(k) + 1] - offs_[k]; }
    // head(k, i): 1-based head of word i (0-based) of sentence k within that
    // sentence, 0 for its root.
    int head(std::size_t k, std::size_t i) const { return r_->heads[at(k, i)]; }
    const char *deprel(std::size_t k, std::size_t i) const { return r_->deprels[at(k, i)]; }
    const char *upos(std::size_t k, std::size_t i) const { return r_->upos[at(k, i)]; }
    const char *xpos(std::size_t k, std::size_t i) const { return r_->xpos[at(k, i)]; }
    const char *lemma(std::size_t k, std::size_t i) const { return r_->lemma[at(k, i)]; }
    const char *feats(std::size_t k, std::size_t i) const { return r_->feats[at(k, i)]; }
    bool has_confidence() const noexcept { return r_ && r_->confidence; }
    double confidence(std::size_t k, std::size_t i) const {
        if (!has_confidence())
            throw std::logic_error("transparse::BatchResult: no confidences (Options::confidence)");
        return r_->confidence[at(k, i)];
    }
    // trees(k): sentence k's trees (the result's tree t of sentence k is
    // missing, score -INFINITY, when the sentence has fewer).
    std::size_t trees(std::size_t k) const {
        std::size_t n = 0;
        while (n < (r_ ? r_->n_trees : 0) && r_->tree_scores[n * size() + sent(k)] != -HUGE_VAL)
            ++n;
        return n;
    }
    int tree_head(std::size_t k, std::size_t t, std::size_t i) const {
        return r_->tree_heads[tree(k, t) * r_->n_words + at(k, i)];
    }
    const char *tree_deprel(std::size_t k, std::size_t t, std::size_t i) const {
        return r_->tree_deprels[tree(k, t) * r_->n_words + at(k, i)];
    }
    double tree_score(std::size_t k, std::size_t t) const { return r_->tree_scores[tree(k, t) * size() + k]; }
    const tp_result *get() const noexcept { return r_; }

private:
    std::size_t tree(std::size_t k, std::size_t t) const {
        if (t >= trees(k))
            throw std::out_of_range("transparse::BatchResult: tree index out of range");
        return t;
    }
    std::size_t sent(std::size_t k) const {
        if (k >= size())
            throw std::out_of_range("transparse::BatchResult: sentence index out of range");
        return k;
    }
    std::size_t at(std::size_t k, std::size_t i) const {
        if (i >= size(k))
            throw std::out_of_range("transparse::BatchResult: word index out of range");
        return offs_[k] + i;
    }
    tp_result *r_;
    std::vector<std::size_t> offs_;
    detail::ModelRef model_;
};

// Stream is a document parsed sentence by sentence (Model::stream, over a
// tp_stream): its memory does not grow with the document. Move-only; use
// it from one thread at a time. It shares the ownership of the tp_model,
// as Result does.
class Stream {
public:
    Stream(Stream &&) noexcept = default;
    Stream &operator=(Stream &&) noexcept = default;

    // next sets sentence to the next parsed sentence (CoNLL-U ending with
    // its blank line) and returns true, or returns false at the end of the
    // document. Throws Error (tp_stream_next; a failed read of the stream
    // is TP_ERR_IO).
    bool next(std::string &sentence) {
        const char *s = nullptr;
        std::size_t n = 0;
        tp_error *err = nullptr;
        const int rc = tp_stream_next(st_.get(), &s, &n, &err);
        detail::check(rc, err); // rc first: err is set by the call
        if (s == nullptr)
            return false;
        sentence.assign(s, n);
        return true;
    }

    // sentences is the number of sentences next has returned; skipped, of
    // them, the number copied through unparsed (tp_stream_stats).
    std::size_t sentences() const { return stats(true); }
    std::size_t skipped() const { return stats(false); }

private:
    friend class Model;
    struct Free {
        void operator()(tp_stream *s) const noexcept { tp_stream_free(s); }
    };
    Stream(tp_stream *st, detail::ModelRef m) : m_(std::move(m)), st_(st) {}

    // read is the tp_read_fn over the std::istream ctx; it never throws
    // through the library.
    static std::ptrdiff_t read(void *ctx, char *buf, std::size_t cap) {
        try {
            std::istream &in = *static_cast<std::istream *>(ctx);
            in.read(buf, static_cast<std::streamsize>(cap));
            return in.bad() ? -1 : static_cast<std::ptrdiff_t>(in.gcount());
        } catch (...) {
            return -1;
        }
    }

    std::size_t stats(bool sentences) const {
        std::size_t n = 0, skipped = 0;
        tp_error *err = nullptr;
        const int rc = tp_stream_stats(st_.get(), &n, &skipped, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return sentences ? n : skipped;
    }

    detail::ModelRef m_; // destroyed after st_
    std::unique_ptr<tp_stream, Free> st_;
};

// Model is a loaded model (owns a tp_model).
class Model {
public:
    // load reads a model file; throws Error (TP_ERR_IO, TP_ERR_MODEL_FORMAT, ...).
    static Model load(const std::string &path) {
        tp_model *m = nullptr;
        tp_error *err = nullptr;
        const int rc = tp_model_load(path.c_str(), &m, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return Model(m);
    }
    // from_memory loads a model from the bytes of a model file (not retained).
    static Model from_memory(const void *data, std::size_t size) {
        tp_model *m = nullptr;
        tp_error *err = nullptr;
        const int rc = tp_model_load_from_memory(data, size, &m, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return Model(m);
    }

    // train trains a model (tp_train): options is a JSON object with at least
    // "system", "train" and "dev"; throws Error (TP_ERR_ARGUMENT for an
    // unknown system or option, TP_ERR_IO, TP_ERR_INPUT with file:line).
    static Model train(const std::string &options_json) {
        tp_model *m = nullptr;
        tp_error *err = nullptr;
        const int rc = tp_train(options_json.c_str(), &m, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return Model(m);
    }

    // systems lists the transition systems the library implements (tp_systems).
    static std::vector<std::string> systems() {
        char *names = nullptr;
        tp_error *err = nullptr;
        const int rc = tp_systems(&names, &err);
        detail::check(rc, err); // rc first: err is set by the call
        std::vector<std::string> out;
        std::string cur;
        for (const char *p = names; *p; ++p) {
            if (*p == '\n') {
                out.push_back(cur);
                cur.clear();
            } else {
                cur += *p;
            }
        }
        tp_string_free(names);
        return out;
    }

    Model(Model &&o) noexcept : m_(std::move(o.m_)) {}
    Model &operator=(Model &&o) noexcept {
        m_ = std::move(o.m_);
        return *this;
    }
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;
    // The tp_model is freed here unless results made from it are alive:
    // then when the last of them is.
    ~Model() = default;

    // parse parses one tokenized sentence (tp_parse) with options (a beam,
    // confidences, k best trees). Every non-empty Tags vector must have one
    // entry per form.
    Result parse(const std::vector<std::string> &forms, const Options &options = Options(),
                 const Tags *tags = nullptr) const {
        const tp_options o = options.to_c();
        return parse_one(forms, tags, o);
    }

    // parse_batch parses many tokenized sentences in one library call
    // (tp_parse_batch), each as parse does with the same options. tags, if
    // given, has one Tags per sentence. An empty batch gives an empty
    // result. Throws Error (the message names the word: "forms[17] ...
    // (sentence 3, word 2)").
    BatchResult parse_batch(const std::vector<std::vector<std::string>> &sentences,
                            const Options &options = Options(), const std::vector<Tags> *tags = nullptr) const {
        const tp_options o = options.to_c();
        return parse_sentences(sentences, tags, o);
    }

    // parse_document parses a document, CoNLL-U, pre-tokenized or raw text
    // as options.input says (tp_parse_document), and returns it as CoNLL-U;
    // *skipped, when not null, receives the number of sentences copied
    // through unparsed (TP_ON_ERROR_SKIP).
    std::string parse_document(const std::string &text, const Options &options = Options(),
                               std::size_t *skipped = nullptr) const {
        const tp_options o = options.to_c();
        char *out = nullptr;
        std::size_t len = 0;
        tp_error *err = nullptr;
        const int rc = tp_parse_document(m_.get(), text.data(), text.size(), &o, &out, &len, skipped, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return detail::take_string(out, len);
    }

    // stream parses the document read from in sentence by sentence
    // (tp_stream_open; see Stream). in must outlive the stream.
    Stream stream(std::istream &in, const Options &options = Options()) const;

    // default_beam is the model's default beam width (tp_model_default_beam).
    int default_beam() const {
        int width = 0;
        tp_error *err = nullptr;
        const int rc = tp_model_default_beam(m_.get(), &width, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return width;
    }

    // save writes the model file to path (tp_model_save); throws Error.
    void save(const std::string &path) const {
        tp_error *err = nullptr;
        const int rc = tp_model_save(m_.get(), path.c_str(), &err);
        detail::check(rc, err); // rc first: err is set by the call
    }

    // card_json returns the model card as a JSON object.
    std::string card_json() const {
        char *js = nullptr;
        tp_error *err = nullptr;
        const int rc = tp_model_card_json(m_.get(), &js, &err);
        detail::check(rc, err); // rc first: err is set by the call
        std::string s(js);
        tp_string_free(js);
        return s;
    }

    std::vector<std::string> deprels() const { return strings(tp_model_deprels); }
    std::vector<std::string> upos_tags() const { return strings(tp_model_upos_tags); }
    std::vector<std::string> xpos_tags() const { return strings(tp_model_xpos_tags); }

    tp_model *get() const noexcept { return m_.get(); }

private:
    // Model takes ownership of m (a failed allocation of the owner frees m
    // and throws std::bad_alloc).
    explicit Model(tp_model *m) : m_(m, detail::ModelFree()) {}

    Result parse_one(const std::vector<std::string> &forms, const Tags *tags, tp_options o) const {
        std::vector<const char *> f = detail::c_strings(forms);
        std::vector<const char *> cols[4];
        tp_tags t = {nullptr, nullptr, nullptr, nullptr};
        if (tags)
            add_tags(t, cols, *tags, forms.size(), 0, forms.size(), "transparse::Model::parse: tags.");
        std::vector<unsigned char> sp;
        if (tags && !tags->space_after.empty()) {
            add_spacing(sp, *tags, forms.size(), 0, forms.size(), "transparse::Model::parse: tags.");
            o.space_after = sp.data();
        }
        tp_result *r = nullptr;
        tp_error *err = nullptr;
        const char *const *fp = f.empty() ? nullptr : f.data();
        const int rc = tp_parse(m_.get(), fp, f.size(), tags ? &t : nullptr, &o, &r, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return Result(r, m_);
    }

    BatchResult parse_sentences(const std::vector<std::vector<std::string>> &sentences, const std::vector<Tags> *tags,
                           tp_options o) const {
        if (tags && tags->size() != sentences.size())
            throw Error(TP_ERR_ARGUMENT, "transparse::Model::parse_batch: " + std::to_string(tags->size()) +
                                             " Tags for " + std::to_string(sentences.size()) + " sentences");
        std::vector<std::size_t> offs(1, 0);
        if (sentences.empty())
            return BatchResult(nullptr, std::move(offs));
        for (const std::vector<std::string> &s : sentences)
            offs.push_back(offs.back() + s.size());
        std::vector<const char *> f;
        f.reserve(offs.back());
        for (const std::vector<std::string> &s : sentences)
            for (const std::string &w : s)
                f.push_back(w.c_str());
        std::vector<const char *> cols[4];
        tp_tags t = {nullptr, nullptr, nullptr, nullptr};
        if (tags)
            for (std::size_t k = 0; k < sentences.size(); ++k)
                add_tags(t, cols, (*tags)[k], offs.back(), offs[k], sentences[k].size(),
                         "transparse::Model::parse_batch: sentence " + std::to_string(k) + ": tags.");
        // Spacing where some sentence gives it: the others all spaced,
        // which tags as unknown spacing does.
        std::vector<unsigned char> sp;
        if (tags)
            for (std::size_t k = 0; k < sentences.size(); ++k)
                if (!(*tags)[k].space_after.empty())
                    add_spacing(sp, (*tags)[k], offs.back(), offs[k], sentences[k].size(),
                                "transparse::Model::parse_batch: sentence " + std::to_string(k) + ": tags.");
        if (!sp.empty())
            o.space_after = sp.data();
        tp_result *r = nullptr;
        tp_error *err = nullptr;
        const char *const *fp = f.empty() ? nullptr : f.data();
        const int rc = tp_parse_batch(m_.get(), fp, offs.data(), sentences.size(), tags ? &t : nullptr, &o, &r, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return BatchResult(r, std::move(offs), m_);
    }

    // add_tags sets the columns of t from tags for the n words starting at
    // word from of arrays of total words (cols own the arrays; a column no
    // sentence gives stays NULL, absent words are NULL); what prefixes the
    // error for a column of the wrong length.
    static void add_tags(tp_tags &t, std::vector<const char *> (&cols)[4], const Tags &tags, std::size_t total,
                         std::size_t from, std::size_t n, const std::string &what) {
        const std::vector<std::string> *src[4] = {&tags.upos, &tags.xpos, &tags.feats, &tags.lemma};
        const char *names[4] = {"upos", "xpos", "feats", "lemma"};
        const char *const **dst[4] = {&t.upos, &t.xpos, &t.feats, &t.lemma};
        for (int c = 0; c < 4; ++c) {
            if (src[c]->empty())
                continue;
            if (src[c]->size() != n)
                throw Error(TP_ERR_ARGUMENT, what + names[c] + " has " + std::to_string(src[c]->size()) +
                                                 " entries for " + std::to_string(n) + " forms");
            if (cols[c].empty())
                cols[c].assign(total, nullptr);
            for (std::size_t i = 0; i < n; ++i)
                cols[c][from + i] = (*src[c])[i].c_str();
            *dst[c] = cols[c].data();
        }
    }

    // add_spacing sets the bytes of tags.space_after (one per form) in sp,
    // for the n words starting at word from of total words (sp grown to
    // total, the words of other sentences spaced); what prefixes the error
    // for the wrong length.
    static void add_spacing(std::vector<unsigned char> &sp, const Tags &tags, std::size_t total, std::size_t from,
                            std::size_t n, const std::string &what) {
        if (tags.space_after.size() != n)
            throw Error(TP_ERR_ARGUMENT, what + "space_after has " + std::to_string(tags.space_after.size()) +
                                             " entries for " + std::to_string(n) + " forms");
        if (sp.empty())
            sp.assign(total, 1);
        for (std::size_t i = 0; i < n; ++i)
            sp[from + i] = tags.space_after[i] ? 1 : 0;
    }

    typedef int (*strings_fn)(const tp_model *, const char *const **, std::size_t *, tp_error **);
    std::vector<std::string> strings(strings_fn fn) const {
        const char *const *names = nullptr;
        std::size_t n = 0;
        tp_error *err = nullptr;
        const int rc = fn(m_.get(), &names, &n, &err);
        detail::check(rc, err); // rc first: err is set by the call
        return std::vector<std::string>(names, names + n);
    }

    detail::ModelRef m_;
};

inline Stream Model::stream(std::istream &in, const Options &options) const {
    const tp_options o = options.to_c();
    tp_stream *st = nullptr;
    tp_error *err = nullptr;
    const int rc = tp_stream_open(m_.get(), &Stream::read, &in, &o, &st, &err);
    detail::check(rc, err); // rc first: err is set by the call
    return Stream(st, m_);
}

} // namespace transparse

#endif // TRANSPARSE_HPP
