#pragma once
// Exact unsigned division by a divisor known only at run time, as one multiply and one shift:
// integer division costs some 20 instructions on a GPU, enough to make a pixel kernel
// compute-bound. Round-up method (Granlund & Montgomery): with 2^l >= d, s = 31 + l and
// m = ceil(2^s / d), floor(n*m / 2^s) == n / d for every n < 2^31.
#include <cstdint>

#include "pixel.h"

namespace kc {

struct FastDiv {
    std::uint64_t multiplier = 1ULL << 31; // the defaults divide by 1
    std::uint32_t shift = 31;

    FastDiv() = default;
    explicit FastDiv(std::uint32_t divisor) {
        if (divisor == 0) divisor = 1; // callers check divisors; never divide by zero here
        std::uint32_t l = 0;
        while ((1ULL << l) < divisor) ++l;
        shift = 31 + l;
        multiplier = ((1ULL << shift) + divisor - 1) / divisor;
    }
    KC_HD std::uint32_t operator()(std::uint32_t n) const {
        return static_cast<std::uint32_t>((n * multiplier) >> shift);
    }
};

} // namespace kc
