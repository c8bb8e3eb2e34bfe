// libFuzzer target: kc::load_image on arbitrary bytes, then fit_image of whatever it decoded.
// Built with ASan and UBSan by scripts/fuzz.sh (-DKC_FUZZ=ON); inputs that crash become tests in
// tests/cpu/test_image_files.cpp.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "render/io/image_io.h"

namespace {

// Small enough that a forged header cannot make every run allocate a gigabyte; the checks that
// guard kMaxImageSide are the same code.
constexpr int kFuzzMaxSide = 1024;

// load_image reads files, so each input goes to one (in memory, under /dev/shm when there is one)
// and the whole path runs: open, type check, signature, decoder.
std::string g_path;

void remove_input_file() { ::unlink(g_path.c_str()); }

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    g_path = std::string(dir) + "/kc_fuzz_image_" + std::to_string(::getpid());
    std::atexit(remove_input_file);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::FILE* file = std::fopen(g_path.c_str(), "wb");
    if (!file) return 0;
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    kc::Image image;
    if (kc::load_image(g_path, image, kFuzzMaxSide)) return 0;
    if (image.pixels.size() != std::size_t(image.width) * image.height) std::abort(); // decoded what it said
    // A canvas of another shape (sizes from the image, so runs repeat) and a single pixel.
    (void)kc::fit_image(image, 1 + image.width * 7 % 61, 1 + image.height * 5 % 47);
    (void)kc::fit_image(image, 1, 1);
    return 0;
}
