#include "app/ab/ab_state.h"

#include <fmt/format.h>

#include "gpu/param_limits.h"
#include "gpu/registry.h"

namespace kc {

PaintJob side_b_job(const AbSplit& split, const PaintJob& a) {
    PaintJob b = split.b;
    b.params.width = a.params.width, b.params.height = a.params.height;
    b.params.seconds = a.params.seconds; // one clock: an animated kernel shows the same moment on both sides
    b.max_blocks = -1;                   // step mode and the writer marks are side A's
    b.marks = {};
    return b;
}

std::string differing_params(const PaintJob& a, const PaintJob& b) {
    if (a.op != b.op) return "";
    const OpInfo& op = op_registry()[b.op];
    std::string out;
    for (const ParamSpec& s : kParams) {
        if (!uses_param(op, s.name)) continue;
        const std::string value = param_text(s, b.params);
        if (value == param_text(s, a.params)) continue;
        out += fmt::format("{}{} {}", out.empty() ? "" : ", ", s.name, value);
    }
    return out;
}

} // namespace kc
