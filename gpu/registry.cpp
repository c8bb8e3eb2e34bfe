#include "gpu/registry.h"

#include "gpu/named.h"

#include <algorithm>
#include <array>

#include "gpu/param_limits.h"

#include "gpu/ops/op_list.h"

namespace kc {

namespace {
// The bits of the parameters named in `names` ("weight cell"); a name not in the table stops the
// build (a throw in a constant expression).
constexpr std::uint64_t param_bits(std::string_view names) {
    std::uint64_t bits = 0;
    while (!names.empty()) {
        const std::size_t end = std::min(names.find(' '), names.size());
        if (end > 0) {
            const int i = param_index(names.substr(0, end));
            if (i < 0) throw "an op names a parameter that is not in ops/op_list.h's KC_PARAM lines";
            bits |= std::uint64_t{1} << i;
        }
        names.remove_prefix(std::min(end + 1, names.size()));
    }
    return bits;
}
static_assert(kParams.size() <= 64, "OpInfo::params has one bit per parameter");

template <class Op>
constexpr OpInfo make_info(int index) {
    void (*cpu)(const OpParams&, Pixel*, OpOutputs*) = nullptr;
    LaunchConfig (*own_launch)(const OpParams&) = nullptr;
    std::string_view launch_note;
    if constexpr (Op::custom) cpu = &Op::cpu_paint, own_launch = &Op::own_launch, launch_note = Op::launch_note;
    return OpInfo{index,
                  Op::name,
                  Op::title,
                  Op::formula,
                  Op::bytes_read_per_pixel,
                  4,
                  Op::custom,
                  Op::user_code,
                  Op::variants,
                  Op::variant_names,
                  Op::makes_histogram,
                  cpu,
                  own_launch,
                  launch_note,
                  &Op::flops,
                  Op::inputs,
                  param_bits(Op::params) | (Op::variants > 1 ? param_bits("variant") : 0)};
}

constexpr auto kOps = [] {
    int i = 0;
    return std::array{
#define KC_OP(Functor) make_info<Functor>(i++),
#include "gpu/ops/op_list.h"
#undef KC_OP
    };
}();

constexpr std::array kViews{View::Pixels, View::Block,  View::Thread, View::Warp,
                            View::Lane,   View::Linear, View::Sm,     View::Start};
} // namespace

std::span<const OpInfo> op_registry() { return kOps; }

bool uses_param(const OpInfo& op, std::string_view name) {
    const int i = param_index(name);
    return i >= 0 && (op.params >> i & 1) != 0;
}

const OpInfo* find_op(std::string_view name) {
    for (const OpInfo& op : kOps)
        if (op.name == name) return &op;
    return nullptr;
}

std::string op_names(std::string_view separator) {
    std::string out;
    for (const OpInfo& op : kOps) {
        if (!out.empty()) out += separator;
        out += op.name;
    }
    return out;
}

std::string_view view_name(View v) {
    switch (v) {
    case View::Pixels:
        return "pixels";
    case View::Block:
        return "block";
    case View::Thread:
        return "thread";
    case View::Warp:
        return "warp";
    case View::Lane:
        return "lane";
    case View::Linear:
        return "linear";
    case View::Sm:
        return "sm";
    case View::Start:
        return "start";
    }
    return "?";
}

std::optional<View> parse_view(std::string_view name) { return find_by_name(name, kViews, view_name); }

std::span<const View> all_views() { return kViews; }

} // namespace kc
