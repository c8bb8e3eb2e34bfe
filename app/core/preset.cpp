#include "app/core/preset.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <set>

#include "app/core/json_file.h"
#include "gpu/paint_job.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "render/io/atomic_file.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

using nlohmann::json;

namespace {

json param_json(const ParamSpec& s, const OpParams& p) {
    const std::string text = param_text(s, p);
    if (s.has_choices()) return text;
    if (s.kind == ParamKind::Bool) return param_value(s, p) != 0;
    if (s.whole()) return std::stoll(text);
    return std::stod(text); // the shortest text that reads back to the field's value
}

// "32x8", or "8x8x4" where the block is three-dimensional.
std::string dim_text(const Dim3& d) { return d.z == 1 ? fmt::format("{}x{}", d.x, d.y) : to_string(d); }

json launch_json(const LaunchConfig& l) {
    return {{"block", dim_text(l.block)},
            {"grid", l.auto_grid ? std::string("auto") : dim_text(l.grid)},
            {"mapping", std::string(mapping_name(l.mapping))},
            {"pixels_per_thread", l.pixels_per_thread}};
}

// A preset error: the JSON path, then what is wrong.
struct PresetError {
    std::string message;
};
[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw PresetError{path + ": " + what}; }

// Reads one JSON object, warning about the keys nobody asked for.
class Fields {
public:
    Fields(const json& j, std::string path, std::vector<std::string>& warnings)
        : j_(j), path_(std::move(path)), warnings_(warnings) {
        if (!j_.is_object()) refuse(path_.empty() ? "preset" : path_, "is not a JSON object");
    }
    Fields(const Fields&) = delete;
    ~Fields() {
        for (const auto& [key, value] : j_.items())
            if (!read_.contains(key))
                warnings_.push_back(fmt::format("{}: unknown key, ignored", escaped(at(key), 80)));
    }
    std::string at(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
    const json* get(const std::string& key) {
        read_.insert(key);
        const auto it = j_.find(key);
        return it == j_.end() || it->is_null() ? nullptr : &*it;
    }
    std::optional<std::string> text(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) refuse(at(key), "expected a string, got " + json_excerpt(*v));
        return v->get<std::string>();
    }
    std::optional<double> number(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) refuse(at(key), "expected a number, got " + json_excerpt(*v));
        return v->get<double>();
    }
    std::optional<bool> flag(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) refuse(at(key), "expected true or false, got " + json_excerpt(*v));
        return v->get<bool>();
    }
    std::vector<std::string>& warnings() { return warnings_; }

private:
    const json& j_;
    std::string path_;
    std::vector<std::string>& warnings_;
    std::set<std::string> read_;
};

// A JSON integer from lo to hi (not a bool, not 2.5, not 2^32 wrapped to 0), or nullopt.
std::optional<int> whole_in(const json& v, int lo, int hi) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        return hi >= 0 && u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo
                   ? std::optional<int>(static_cast<int>(u))
                   : std::nullopt;
    }
    if (!v.is_number_integer()) return std::nullopt;
    const auto i = v.get<std::int64_t>();
    return i >= lo && i <= hi ? std::optional<int>(static_cast<int>(i)) : std::nullopt;
}

// A string the parameter table may echo in its messages: short, nothing a terminal would act on.
bool is_plain_word(const std::string& text) { return text.size() <= 64 && escaped(text) == text; }

// What a parameter's JSON value must be: flags are true or false, never numbers, and the
// reverse.
std::string expected_param(const ParamSpec& s) {
    if (s.kind == ParamKind::Bool && !s.has_choices()) return "true or false";
    return s.has_choices() ? "a number or a name" : "a number";
}

void read_params(Fields& top, OpParams& p) {
    const json* j = top.get("params");
    if (!j) return;
    Fields f(*j, "params", top.warnings());
    for (const auto& [key, value] : j->items()) {
        const ParamSpec* s = find_param(key);
        if (!s) continue; // warned about as unknown
        f.get(key);
        std::optional<std::string> e;
        const bool is_flag = s->kind == ParamKind::Bool && !s->has_choices();
        if (value.is_string() && !is_plain_word(value.get<std::string>()))
            e = fmt::format("{} {} is not a number{}", s->name, quoted(value.get<std::string>(), 40),
                            s->has_choices() ? " or a name" : "");
        else if (value.is_string())
            e = set_param_text(p, key, value.get<std::string>());
        else if (value.is_boolean() && is_flag)
            e = set_param(p, key, value.get<bool>() ? 1 : 0);
        else if (value.is_number() && !is_flag)
            e = set_param(p, key, value.get<double>());
        else
            e = fmt::format("expected {}, got {}", expected_param(*s), json_excerpt(value));
        if (e) refuse(f.at(key), *e);
    }
}

Dim3 read_dim3(Fields& f, const std::string& key, Dim3 fallback) {
    const auto t = f.text(key);
    if (!t) return fallback;
    const auto d = parse_dim3(*t);
    if (!d) refuse(f.at(key), fmt::format("{} is not XxY or XxYxZ", quoted(*t, 40)));
    return *d;
}

void read_launch(Fields& top, LaunchConfig& l) {
    const json* j = top.get("launch");
    if (!j) return;
    Fields f(*j, "launch", top.warnings());
    const DeviceLimits limits = universal_limits();
    l.block = read_dim3(f, "block", l.block);
    if (l.block.count() > limits.max_threads_per_block)
        refuse("launch.block", fmt::format("{} has {} threads, over {}", dim_text(l.block), l.block.count(),
                                           limits.max_threads_per_block));
    if (const auto g = f.text("grid"); g && *g == "auto") {
        l.auto_grid = true;
    } else if (g) {
        l.grid = read_dim3(f, "grid", l.grid), l.auto_grid = false;
    }
    if (const auto m = f.text("mapping")) {
        const auto mapping = parse_mapping(*m);
        if (!mapping)
            refuse("launch.mapping", fmt::format("unknown mapping {}: choose {}", quoted(*m, 40), mapping_names()));
        l.mapping = *mapping;
    }
    if (const auto n = f.number("pixels_per_thread")) {
        if (*n != 1 && *n != 4) refuse("launch.pixels_per_thread", fmt::format("{} is not 1 or 4", *n));
        l.pixels_per_thread = static_cast<int>(*n);
    }
}

void read_canvas(Fields& top, OpParams& p) {
    const json* j = top.get("canvas");
    if (!j) return;
    Fields f(*j, "canvas", top.warnings());
    for (const char* side : {"width", "height"})
        if (const auto v = f.number(side)) {
            if (*v != std::floor(*v) || *v < 1 || *v > kMaxCanvasSide)
                refuse(f.at(side), fmt::format("{} is not a whole number from 1 to {}", *v, kMaxCanvasSide));
            (side[0] == 'w' ? p.width : p.height) = static_cast<int>(*v);
        }
}

void read_overlays(Fields& top, Preset& out) {
    if (const json* j = top.get("overlays")) {
        Fields f(*j, "overlays", top.warnings());
        if (const auto b = f.flag("block_outlines")) out.block_outlines = *b;
        if (const json* at = f.get("inspect")) {
            const auto pixel = [](const json& v) { return whole_in(v, 0, kMaxCanvasSide - 1); };
            if (!at->is_array() || at->size() != 2 || !pixel((*at)[0]) || !pixel((*at)[1]))
                refuse("overlays.inspect", fmt::format("expected [x, y] (whole numbers from 0 to {}) or null, got {}",
                                                       kMaxCanvasSide - 1, json_excerpt(*at)));
            out.inspect = std::pair{*pixel((*at)[0]), *pixel((*at)[1])};
        }
    }
    if (const json* j = top.get("window")) {
        Fields f(*j, "window", top.warnings());
        if (const auto z = f.number("zoom")) {
            if (!(*z >= 1.0 / 64 && *z <= 64)) refuse("window.zoom", fmt::format("{} is not from 1/64 to 64", *z));
            out.canvas_zoom = *z;
        }
    }
}

void read_inputs(Fields& top, Preset& out) {
    if (const json* j = top.get("images")) {
        Fields f(*j, "images", top.warnings());
        out.images[0] = f.text("a").value_or("");
        out.images[1] = f.text("b").value_or("");
        if (out.images[0].empty() && !out.images[1].empty()) refuse("images.b", "needs images.a");
    }
    if (const json* j = top.get("kernel")) {
        Fields f(*j, "kernel", top.warnings());
        out.kernel_source = f.text("source").value_or("");
        if (const auto mode = f.text("mode")) {
            const auto m = parse_kernel_mode(*mode);
            if (!m) refuse("kernel.mode", "is checked or raw");
            out.kernel_mode = *m;
        }
    }
}

void read_version(Fields& top) {
    const auto version = top.number("kcanvas_preset");
    if (!version) refuse("kcanvas_preset", "missing: this is not a kcanvas preset");
    if (*version != kPresetVersion)
        refuse("kcanvas_preset",
               fmt::format("version {} is not the one this kcanvas reads ({})", *version, kPresetVersion));
}

void read_ab(Fields& top, Preset& out);

// A whole preset carries its version; a partial one (a lesson step's) only the keys that change.
void read_top(const json& j, Preset& out, std::vector<std::string>& warnings, bool partial = false) {
    Fields top(j, "", warnings);
    if (!partial) read_version(top);
    if (const auto op = top.text("op")) {
        const OpInfo* info = find_op(*op);
        if (!info) refuse("op", fmt::format("unknown op {}: choose one of {}", quoted(*op, 40), op_names()));
        out.job.op = info->index;
        if (uses_param(*info, "julia-re")) out.job.params.center_x = 0.0; // as --op julia starts
    }
    if (const auto v = top.text("view")) {
        const auto view = parse_view(*v);
        if (!view) refuse("view", fmt::format("unknown view {}", quoted(*v, 40)));
        out.job.view = *view;
    }
    read_canvas(top, out.job.params);
    read_params(top, out.job.params);
    if (auto e = variant_error(op_registry()[out.job.op], out.job.params.variant)) refuse("params.variant", *e);
    read_launch(top, out.job.launch);
    read_overlays(top, out);
    read_inputs(top, out);
    read_ab(top, out);
}

// Side B as a partial preset over side A: what B does not name is A's. It paints A's canvas
// with A's images, so it may not name others.
void read_side_b(const json& j, const Preset& a, AbSplit& ab, std::vector<std::string>& warnings) {
    if (j.is_object() && j.contains("ab")) refuse("ab.b.ab", "side B holds no split of its own");
    Preset side = a;
    side.ab.reset();
    side.job = ab.b, side.kernel_source = ab.b_kernel_source, side.kernel_mode = ab.b_kernel_mode;
    std::vector<std::string> found;
    try {
        read_top(j, side, found, /*partial=*/true);
    } catch (const PresetError& e) {
        refuse("ab.b", e.message);
    }
    for (const std::string& w : found) warnings.push_back("ab.b." + w);
    if (side.job.params.width != a.job.params.width || side.job.params.height != a.job.params.height)
        refuse("ab.b.canvas", fmt::format("side B paints side A's canvas ({}x{}): leave it out", a.job.params.width,
                                          a.job.params.height));
    if (side.images != a.images) refuse("ab.b.images", "side B reads side A's images: leave them out");
    ab.b = side.job, ab.b_kernel_source = side.kernel_source, ab.b_kernel_mode = side.kernel_mode;
}

void read_ab(Fields& top, Preset& out) {
    const json* j = top.get("ab");
    if (!j) return;
    Fields f(*j, "ab", top.warnings());
    AbSplit ab;
    if (out.ab) {
        ab = *out.ab; // a lesson step's partial preset changes what it names
    } else {
        ab.b = out.job, ab.b_kernel_source = out.kernel_source, ab.b_kernel_mode = out.kernel_mode;
    }
    if (const auto layout = f.text("layout")) {
        const auto l = parse_ab_layout(*layout);
        if (!l) refuse("ab.layout", fmt::format("{} is not divider or side-by-side", quoted(*layout, 40)));
        ab.layout = *l;
    }
    if (const auto d = f.number("divider")) {
        if (!(*d >= 0 && *d <= 1)) refuse("ab.divider", fmt::format("{} is not from 0 to 1", *d));
        ab.divider = *d;
    }
    if (const auto diff = f.flag("diff")) ab.diff = *diff;
    if (const json* b = f.get("b")) read_side_b(*b, out, ab, f.warnings());
    ab.b.params.width = out.job.params.width, ab.b.params.height = out.job.params.height;
    out.ab = std::move(ab);
}

// The keys of one side's picture: op, parameters, launch, view and the user kernel.
json side_json(const PaintJob& job, const std::string& kernel_source, KernelMode kernel_mode) {
    const OpInfo& op = op_registry()[job.op];
    json params = json::object();
    for (const ParamSpec& s : kParams)
        if (uses_param(op, s.name)) params[std::string(s.name)] = param_json(s, job.params);
    json j = {{"op", std::string(op.name)},
              {"params", params},
              {"launch", launch_json(job.launch)},
              {"view", std::string(view_name(job.view))}};
    if (op.user_code) j["kernel"] = {{"source", kernel_source}, {"mode", to_string(kernel_mode)}};
    return j;
}

} // namespace

std::string preset_json(const Preset& p) {
    json j = side_json(p.job, p.kernel_source, p.kernel_mode);
    j["kcanvas_preset"] = kPresetVersion;
    j["canvas"] = {{"width", p.job.params.width}, {"height", p.job.params.height}};
    j["images"] = {{"a", p.images[0]}, {"b", p.images[1]}};
    j["overlays"] = {{"block_outlines", p.block_outlines}, {"inspect", nullptr}};
    if (p.inspect) j["overlays"]["inspect"] = {p.inspect->first, p.inspect->second};
    if (p.canvas_zoom) j["window"] = {{"zoom", *p.canvas_zoom}};
    if (p.ab)
        j["ab"] = {{"layout", std::string(ab_layout_name(p.ab->layout))},
                   {"divider", p.ab->divider},
                   {"diff", p.ab->diff},
                   {"b", side_json(p.ab->b, p.ab->b_kernel_source, p.ab->b_kernel_mode)}};
    return j.dump(2) + "\n";
}

namespace {

// Read from JSON over `start`, with warnings and errors in `warnings`/the result.
std::optional<std::string> read_preset(const json& j, Preset& out, std::vector<std::string>& warnings,
                                       const Preset& start = {}, bool partial = false) {
    Preset p = start;
    std::vector<std::string> found;
    try {
        read_top(j, p, found, partial);
    } catch (const PresetError& e) {
        return e.message;
    } catch (const json::exception& e) { // a value of a type the reader did not expect
        return "unreadable: " + escaped(e.what(), 160);
    }
    if (auto e = canvas_size_error(p.job.params.width, p.job.params.height)) return "canvas: " + *e;
    if (auto e = resolve_launch(p.job, universal_limits()).launch_refusal) return "launch: " + *e;
    if (p.ab)
        if (auto e = resolve_launch(p.ab->b, universal_limits()).launch_refusal) return "ab.b.launch: " + *e;
    out = std::move(p);
    constexpr std::size_t kMaxWarnings = 20; // a file of 100,000 unknown keys is not 100,000 lines
    for (std::size_t i = 0; i < found.size() && i < kMaxWarnings; ++i) warnings.push_back(std::move(found[i]));
    if (found.size() > kMaxWarnings)
        warnings.push_back(fmt::format("{} more unknown keys", found.size() - kMaxWarnings));
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_preset(const std::string& text, Preset& out, std::vector<std::string>& warnings) {
    auto j = parse_json(text, kPresetLimits);
    if (const auto* e = std::get_if<std::string>(&j)) return *e;
    return read_preset(std::get<json>(j), out, warnings);
}

std::optional<std::string> apply_partial_preset(const nlohmann::json& j, Preset& inout,
                                                std::vector<std::string>& warnings) {
    return read_preset(j, inout, warnings, inout, true);
}

std::optional<std::string> load_preset(const std::string& path, Preset& out, std::vector<std::string>& warnings) {
    std::string text;
    if (auto e = read_bounded_file(path, kPresetLimits.max_bytes, kPresetLimits.what, text)) return *e;
    std::vector<std::string> found;
    if (auto e = parse_preset(text, out, found)) return escaped(path) + ": " + *e;
    for (const std::string& w : found) warnings.push_back(escaped(path) + ": " + w);
    return std::nullopt;
}

std::optional<std::string> save_preset(const std::string& path, const Preset& p) {
    Preset saved = p;
    for (std::string& image : saved.images) // opened from another folder, the preset still finds them
        if (std::error_code ec; !image.empty()) {
            const auto resolved = std::filesystem::absolute(image, ec);
            if (!ec) image = resolved.lexically_normal().string();
        }
    return write_file_atomically(path, preset_json(saved));
}

namespace {
// One shell word: as it is when it is plain, else in single quotes.
std::string shell_word(const std::string& w) {
    const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789-_./:=,+@%") == std::string::npos;
    if (plain) return w;
    if (escaped(w, w.size()) != w) return quoted(w, w.size()).insert(0, 1, '$'); // bash's $'...': no raw controls
    std::string out = "'";
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}
} // namespace

std::string command_line(const Preset& p) {
    const OpInfo& op = op_registry()[p.job.op];
    std::vector<std::string> words = {"kcanvas", "--op", std::string(op.name), "--size",
                                      fmt::format("{}x{}", p.job.params.width, p.job.params.height)};
    auto add = [&](const std::string& flag, const std::string& value) {
        words.push_back(flag), words.push_back(value);
    };
    for (const ParamSpec& s : kParams) {
        if (!uses_param(op, s.name)) continue;
        if (s.kind == ParamKind::Bool && !s.has_choices()) {
            if (param_value(s, p.job.params) != 0) words.push_back("--" + std::string(s.name));
            continue;
        }
        add("--" + std::string(s.name), param_text(s, p.job.params));
    }
    if (!op.custom) {
        const LaunchConfig& l = p.job.launch;
        add("--block", dim_text(l.block));
        add("--grid", l.auto_grid ? std::string("auto") : dim_text(l.grid));
        if (!op.user_code) {
            add("--mapping", std::string(mapping_name(l.mapping)));
            add("--pixels-per-thread", std::to_string(l.pixels_per_thread));
            add("--view", std::string(view_name(p.job.view)));
        }
    }
    if (op.user_code && p.kernel_mode != KernelMode::Checked) add("--kernel-mode", to_string(p.kernel_mode));
    if (!p.images[0].empty()) add("--image", p.images[0]);
    if (!p.images[1].empty()) add("--image2", p.images[1]);
    std::string out;
    for (const std::string& w : words) {
        if (!out.empty()) out += ' ';
        out += shell_word(w);
    }
    if (op.user_code && !p.kernel_source.empty()) out += " --kernel YOUR_KERNEL.cu # save the editor's text there";
    // Two pictures do not fit one command line: the split goes through presets.
    if (p.ab) out += " # side A only: for the A/B split, Save preset and run kcanvas --preset FILE";
    return out;
}

} // namespace kc
