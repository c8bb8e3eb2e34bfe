#pragma once
// The ops' parameters in one table, built from the KC_PARAM lines of ops/op_list.h: name (the
// CLI's --NAME, the script's verb, the preset's key), the OpParams field, kind, range, default,
// panel label and help. The panel, the command line, the script, presets and validation all read
// it, and every value they set passes param_error, so NaN, infinities and out-of-range numbers
// never reach a kernel.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "gpu/op_params.h"

namespace kc {

enum class ParamKind { Int, Float, Double, Bool };

// How the panel shows a parameter: a slider (a checkbox for Bool), the op's own variant radio
// buttons, or nothing (the mouse sets it: the fractals' centre and zoom).
enum class ParamWidget { Control, OpVariants, None };

struct ParamSpec {
    std::string_view name;  // as on the command line, without "--"
    std::string_view label; // the panel's control
    std::string_view help;  // --help and the panel's tooltip
    std::string_view unit;  // "pixels", or ""
    double lo = 0, hi = 0;
    double slider_lo = 0, slider_hi = 0; // the panel's slider, where narrower than lo..hi
    int multiple_of = 1;                 // whole values must also be a multiple of this
    bool log_slider = false;
    std::array<std::string_view, 3> choices{}; // named values 0, 1, ... ("naive", "tiled", ...), or none
    ParamWidget widget = ParamWidget::Control;
    double reciprocal = 0; // nonzero: the field holds reciprocal / value (the zoom's plane units per pixel)
    // Filled from the KC_PARAM line:
    ParamKind kind = ParamKind::Double;
    double default_value = 0;
    double (*read)(const OpParams&) = nullptr;  // the field, as a double
    void (*write)(OpParams&, double) = nullptr; // the field from a double (no checks)

    bool whole() const { return kind == ParamKind::Int || kind == ParamKind::Bool; }
    bool has_choices() const { return !choices[0].empty(); }
    int choice_count() const {
        int n = 0;
        while (n < static_cast<int>(choices.size()) && !choices[n].empty()) ++n;
        return n;
    }
    // "naive, tiled or registers"
    std::string choice_list() const {
        std::string list;
        for (int i = 0, n = choice_count(); i < n; ++i)
            list += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(choices[i]);
        return list;
    }
    double slider_min() const { return slider_hi > slider_lo ? std::max(lo, slider_lo) : lo; }
    double slider_max() const { return slider_hi > slider_lo ? std::min(hi, slider_hi) : hi; }
};

namespace detail {
template <auto Field>
constexpr ParamSpec with_field(ParamSpec s, double default_field) {
    using T = std::remove_cvref_t<decltype(std::declval<OpParams&>().*Field)>;
    s.kind = std::is_same_v<T, bool>    ? ParamKind::Bool
             : std::is_integral_v<T>    ? ParamKind::Int
             : std::is_same_v<T, float> ? ParamKind::Float
                                        : ParamKind::Double;
    s.default_value = s.reciprocal != 0 ? s.reciprocal / default_field : default_field;
    s.read = [](const OpParams& p) { return static_cast<double>(p.*Field); };
    s.write = [](OpParams& p, double v) { p.*Field = static_cast<T>(v); };
    return s;
}
} // namespace detail

// The rows name only the fields they set; the rest keep their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
inline constexpr auto kParams = std::to_array<ParamSpec>({
#define KC_PARAM(type, field, default_value, ...)                                                                      \
    detail::with_field<&OpParams::field>(ParamSpec{__VA_ARGS__}, static_cast<double>(default_value)),
#include "gpu/ops/op_list.h"
#undef KC_PARAM
});
#pragma GCC diagnostic pop

inline const ParamSpec* find_param(std::string_view name) {
    for (const ParamSpec& s : kParams)
        if (s.name == name) return &s;
    return nullptr;
}

// Its position in kParams: bit (1 << index) of OpInfo::params says an op reads it.
constexpr int param_index(std::string_view name) {
    for (std::size_t i = 0; i < kParams.size(); ++i)
        if (kParams[i].name == name) return static_cast<int>(i);
    return -1;
}

// The parameter's value in p (the zoom, not the field's plane units per pixel).
inline double param_value(const ParamSpec& s, const OpParams& p) {
    const double field = s.read(p);
    return s.reciprocal != 0 ? s.reciprocal / field : field;
}

// Why `value` cannot be parameter `name` (NaN, infinite, out of range, not whole), naming the
// parameter, the value and the range; nullopt when it can.
inline std::optional<std::string> param_error(std::string_view name, double value) {
    const ParamSpec* s = find_param(name);
    if (!s) return fmt::format("unknown parameter '{}'", name);
    const bool ok = std::isfinite(value) && value >= s->lo && value <= s->hi &&
                    (!s->whole() || (value == std::floor(value) && std::fmod(value, s->multiple_of) == 0));
    if (ok) return std::nullopt;
    const std::string what = !s->whole()          ? "a number"
                             : s->multiple_of > 1 ? fmt::format("a multiple of {}", s->multiple_of)
                                                  : std::string("a whole number");
    return fmt::format("{} {} is not {} from {:g} to {:g}", name, value, what, s->lo, s->hi);
}

// Sets parameter `name` of p to `value` when param_error allows it; else p is unchanged and the
// error says why.
inline std::optional<std::string> set_param(OpParams& p, std::string_view name, double value) {
    if (auto e = param_error(name, value)) return e;
    const ParamSpec& s = *find_param(name);
    s.write(p, s.reciprocal != 0 ? s.reciprocal / value : value);
    return std::nullopt;
}

inline std::optional<double> get_param(const OpParams& p, std::string_view name) {
    const ParamSpec* s = find_param(name);
    if (!s) return std::nullopt;
    return param_value(*s, p);
}

// The value as text that set_param_text reads back to the same value: a choice's name, on/off,
// or the shortest number that round-trips (a float field's value as a float).
inline std::string param_text(const ParamSpec& s, const OpParams& p) {
    double v = param_value(s, p);
    if (s.reciprocal != 0) { // the value whose reciprocal is the field exactly, where a neighbour is
        const double field = s.read(p);
        for (double up = v, down = v, i = 0; i < 8 && s.reciprocal / v != field; ++i) {
            up = std::nextafter(up, HUGE_VAL), down = std::nextafter(down, -HUGE_VAL);
            v = s.reciprocal / up == field ? up : s.reciprocal / down == field ? down : v;
        }
    }
    if (s.has_choices()) return std::string(s.choices[std::clamp(static_cast<int>(v), 0, s.choice_count() - 1)]);
    if (s.kind == ParamKind::Bool) return v != 0 ? "on" : "off";
    if (s.kind == ParamKind::Float && s.reciprocal == 0) return fmt::format("{}", static_cast<float>(v));
    return fmt::format("{}", v);
}

// Reads `text` as parameter `name` (a number; a choice's name or its number; on/off, true/false
// or 1/0 for a flag) and sets it as set_param does. The error names the parameter and what it takes.
inline std::optional<std::string> set_param_text(OpParams& p, std::string_view name, const std::string& text) {
    const ParamSpec* s = find_param(name);
    if (!s) return fmt::format("unknown parameter '{}'", name);
    if (s->has_choices()) {
        for (int i = 0; i < s->choice_count(); ++i)
            if (text == s->choices[i] || text == std::to_string(i)) return set_param(p, name, i);
        return fmt::format("{} '{}' is not {}", name, text, s->choice_list());
    }
    if (s->kind == ParamKind::Bool) {
        if (text == "on" || text == "true" || text == "1") return set_param(p, name, 1);
        if (text == "off" || text == "false" || text == "0") return set_param(p, name, 0);
        return fmt::format("{} '{}' is not on or off", name, text);
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end); // "nan" and "inf" parse, and param_error refuses them
    if (text.empty() || end != text.c_str() + text.size()) return fmt::format("{} '{}' is not a number", name, text);
    return set_param(p, name, v);
}

} // namespace kc
