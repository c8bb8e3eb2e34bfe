#pragma once
// Exact unsigned division by a divisor known only at run time, as one multiply-high and one shift:
// integer division costs some 20 instructions on a GPU, enough to make a pixel kernel
// compute-bound. Round-up method (Granlund & Montgomery): with 2^l >= d, s = 31 + l and
// m = ceil(2^s / d), floor(n*m / 2^s) == n / d for every n < 2^31. m < 2^32 (d = 2^l gives 2^31,
// any other d less than 2^32), so the product is one 32x32 multiply-high of 2n and m, shifted by l:
// three instructions where a 64-bit multiplier and a 64-bit shift by s took eight.
#include <cstdint>

#include "gpu/pixel.h"

namespace kc {

struct FastDiv {
    std::uint32_t multiplier = 1U << 31; // the defaults divide by 1
    std::uint32_t shift = 0;             // l: the shift after the multiply-high

    FastDiv() = default;
    explicit FastDiv(std::uint32_t divisor) { // divisors up to 2^31
        if (divisor == 0) divisor = 1;        // callers check divisors; never divide by zero here
        std::uint32_t l = 0;
        while ((1ULL << l) < divisor) ++l;
        shift = l;
        multiplier = static_cast<std::uint32_t>(((1ULL << (31 + l)) + divisor - 1) / divisor);
    }
    KC_HD std::uint32_t operator()(std::uint32_t n) const { // n < 2^31
#if defined(__CUDA_ARCH__)
        return __umulhi(n << 1, multiplier) >> shift;
#else
        return static_cast<std::uint32_t>((static_cast<std::uint64_t>(n << 1) * multiplier) >> 32) >> shift;
#endif
    }
};

} // namespace kc
