#pragma once
// The ops' numeric parameters in one table: name, range, whether whole, default. The command line,
// the UI script and the panel check every value they set through param_error, so NaN, infinities
// and out-of-range numbers never reach a kernel.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "op_params.h"

namespace kc {

struct ParamLimit {
    std::string_view name; // as on the command line, without "--"
    double lo, hi;
    bool whole;
    double default_value;
    int multiple_of = 1; // whole values must also be a multiple of this
};

inline constexpr std::array<ParamLimit, 9> kParamLimits{{
    {"weight", 0.0, 1.0, false, 0.75},
    {"cell", 1, 16384, true, 80},
    {"level", 0, 256, true, 128},
    {"radius", 0, kMaxBlurRadius, true, 2},
    {"iter", 1, 100000, true, 256},
    {"matmul-n", 16, 4096, true, 512, 16},
    {"center-x", -1000, 1000, false, -0.5}, // the fractals live within |c| <= 2
    {"center-y", -1000, 1000, false, 0.0},
    {"zoom", 0.01, 1e15, false, 1.0}, // 1: 3 plane units across 800 pixels; double runs out near 1e13
}};

inline const ParamLimit* find_param_limit(std::string_view name) {
    for (const ParamLimit& l : kParamLimits)
        if (l.name == name) return &l;
    return nullptr;
}

// Why `value` cannot be parameter `name` (NaN, infinite, out of range, not whole), naming the
// parameter, the value and the range; nullopt when it can.
inline std::optional<std::string> param_error(std::string_view name, double value) {
    const ParamLimit* l = find_param_limit(name);
    if (!l) return fmt::format("unknown parameter '{}'", name);
    const bool ok = std::isfinite(value) && value >= l->lo && value <= l->hi &&
                    (!l->whole || (value == std::floor(value) && std::fmod(value, l->multiple_of) == 0));
    if (ok) return std::nullopt;
    const std::string what = !l->whole            ? "a number"
                             : l->multiple_of > 1 ? fmt::format("a multiple of {}", l->multiple_of)
                                                  : std::string("a whole number");
    return fmt::format("{} {} is not {} from {:g} to {:g}", name, value, what, l->lo, l->hi);
}

} // namespace kc
