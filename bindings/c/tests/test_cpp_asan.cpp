// test_cpp_asan.cpp -- the C++ wrapper's lifetimes, built with
// AddressSanitizer (-fsanitize=address) by ./build.sh test.
//
//   usage: test_cpp_asan [MODEL]    (skipped when the model is missing)
//
// A Result or BatchResult points into its model's label and tag tables; it
// must keep them alive after the Model object that produced it is gone,
// as in Model::load(path).parse(...). Any use after free aborts the run
// with ASan's report. The last line is "N passed, M failed".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <transparse.hpp>

static int passed, failed;

static void check(bool ok, int line, const char *what) {
    (ok ? passed : failed)++;
    if (!ok)
        std::fprintf(stderr, "test_cpp_asan.cpp:%d: FAIL: %s\n", line, what);
}
#define CHECK(cond) check((cond), __LINE__, #cond)

// joined reads every string of a Result: its deprels and UPOS tags.
static std::string joined(const transparse::Result &r) {
    std::string s;
    for (std::size_t i = 0; i < r.size(); ++i)
        s += std::string(r.deprel(i)) + "/" + r.upos(i) + " ";
    return s;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : std::getenv("TRANSPARSE_MODEL");
    if (!path || !*path)
        path = "models/en_ewt.tpm";
    if (std::FILE *f = std::fopen(path, "rb")) {
        std::fclose(f);
    } else {
        std::printf("SKIP: no model at %s\n0 passed, 0 failed\n", path);
        return 0;
    }
    const std::vector<std::string> words = {"I", "saw", "her", "."};
    std::string want;
    {
        transparse::Model m = transparse::Model::load(path);
        want = joined(m.parse(words));
    }
    CHECK(want.find("nsubj/PRON") != std::string::npos);

    // The model is a temporary, destroyed at the end of the statement.
    transparse::Result r = transparse::Model::load(path).parse(words);
    CHECK(joined(r) == want);

    // A model moved from, assigned over and destroyed.
    transparse::Result r2;
    {
        transparse::Model m = transparse::Model::load(path);
        r2 = m.parse(words);
        transparse::Model other = std::move(m);
        other = transparse::Model::load(path);
    }
    CHECK(joined(r2) == want);

    // A batch result, and a result moved out of its scope.
    transparse::BatchResult b = transparse::Model::load(path).parse_batch({words, {"Dogs", "bark", "."}});
    CHECK(b.size() == 2 && std::string(b.deprel(0, 0)) == "nsubj" && std::strlen(b.upos(1, 1)) > 0);
    transparse::Result moved = std::move(r);
    CHECK(joined(moved) == want && r.size() == 0);

    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
