// consumer.cpp -- a C++ application of an installed libtransparse, built
// with CMake's find_package(transparse) by the install test: the same
// output as consumer.c, through the header-only wrapper transparse.hpp.
#include <cstdio>
#include <string>
#include <vector>

#include <transparse.hpp>

int main() {
    const char *path = tp_default_model_path();
    if (path == nullptr) {
        std::fprintf(stderr, "consumer: no default model\n");
        return 1;
    }
    std::printf("model %s\n", path);
    try {
        transparse::Model model = transparse::Model::load(path);
        std::vector<std::string> forms{"I", "saw", "her", "."};
        transparse::Result r = model.parse(forms);
        for (std::size_t i = 0; i < r.size(); i++)
            std::printf("%zu\t%s\t%s\t%d\t%s\n", i + 1, forms[i].c_str(), r.upos(i), r.head(i), r.deprel(i));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "consumer: %s\n", e.what());
        return 1;
    }
    return 0;
}
