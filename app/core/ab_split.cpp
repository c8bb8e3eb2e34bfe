#include "app/core/ab_split.h"

namespace kc {

std::string_view ab_layout_name(AbLayout layout) { return layout == AbLayout::SideBySide ? "side-by-side" : "divider"; }

std::optional<AbLayout> parse_ab_layout(std::string_view name) {
    for (AbLayout l : {AbLayout::Divider, AbLayout::SideBySide})
        if (name == ab_layout_name(l)) return l;
    return std::nullopt;
}

} // namespace kc
