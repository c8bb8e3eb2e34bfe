#pragma once
// Parsing an enum from the name the CLI, the scripts and the panel use for it.
#include <iterator>
#include <optional>
#include <string_view>
#include <type_traits>

namespace kc {

// The value of `all` whose name_of(value) is `name`, or nullopt.
template <class Range, class NameOf>
auto find_by_name(std::string_view name, const Range& all, NameOf name_of)
    -> std::optional<std::decay_t<decltype(*std::begin(all))>> {
    for (const auto& value : all)
        if (name_of(value) == name) return value;
    return std::nullopt;
}

} // namespace kc
