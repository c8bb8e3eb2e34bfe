#pragma once
// The one value tests fill output with before painting, to find pixels nobody wrote. No op, view
// or hatch writes alpha 7 (ops write 255; image ops copy inputs that the tests make opaque).
#include "gpu/pixel.h"

namespace kc::test {

constexpr Pixel kPoison{0x11, 0x22, 0x33, 7};

} // namespace kc::test
