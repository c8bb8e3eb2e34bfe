#pragma once
// The GPU the gpu tests run on: KC_TEST_GPU=N (a CUDA device index; default 0), so that a machine
// with several GPUs tests each of them: KC_TEST_GPU=1 ctest -L gpu.
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace kc::test {

inline int test_gpu() {
    const char* value = std::getenv("KC_TEST_GPU");
    if (!value || !*value) return 0;
    const std::string text = value;
    if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 3)
        throw std::invalid_argument("KC_TEST_GPU='" + text + "' is not a CUDA device index");
    return std::stoi(text);
}

// kcanvas' flag for it, with spaces around.
inline std::string gpu_flag() { return " --gpu " + std::to_string(test_gpu()) + " "; }

} // namespace kc::test
