#include "app/core/timeline_file.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/core/json_file.h"
#include "gpu/launch_config.h"
#include "gpu/registry.h"
#include "render/io/bounded_file.h"

namespace kc {

namespace {

// A million blocks (kMaxTimelineBlocks) take about 80 MB as --timeline-out writes them.
const JsonLimits kTraceLimits{std::size_t(64) << 20, 8, "a timeline file"};

// "block (3,1)" or "block (3,1,2)": the block's number in launch order, or -1.
long long block_number(const std::string& name, const Dim3& grid) {
    int x = -1, y = -1, z = 0, used = 0;
    const int size = static_cast<int>(name.size());
    if (std::sscanf(name.c_str(), "block (%d,%d,%d)%n", &x, &y, &z, &used) != 3 || used != size) {
        z = 0, used = 0;
        if (std::sscanf(name.c_str(), "block (%d,%d)%n", &x, &y, &used) != 2 || used != size) return -1;
    }
    if (x < 0 || y < 0 || z < 0 || x >= grid.x || y >= grid.y || z >= grid.z) return -1;
    return (1LL * z * grid.y + y) * grid.x + x;
}

std::optional<std::string> text_field(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

// The launch and the clock from otherData, into `r`; or why not.
std::optional<std::string> read_other_data(const nlohmann::json& doc, RecordedTimeline& r) {
    const auto other = doc.find("otherData");
    if (other == doc.end() || !other->is_object()) return "no \"otherData\": not a kcanvas --timeline-out file";
    const auto block = text_field(*other, "block"), grid = text_field(*other, "grid");
    const auto b = block ? parse_dim3(*block) : std::nullopt, g = grid ? parse_dim3(*grid) : std::nullopt;
    const auto positive = [](const std::optional<Dim3>& d) { return d && d->x >= 1 && d->y >= 1 && d->z >= 1; };
    if (!positive(b) || !positive(g)) return "\"otherData\" needs \"block\" and \"grid\" as WxHxD";
    if (g->count() > kMaxTimelineBlocks)
        return fmt::format("a grid of {} blocks, over the {} a timeline holds", g->count(), kMaxTimelineBlocks);
    BlockTimeline& t = r.timeline;
    t.block = *b, t.grid = *g;
    t.source = text_field(*other, "rows").value_or("") == "cpu emulator workers" ? TimelineSource::CpuWorkers
                                                                                 : TimelineSource::Gpu;
    if (const auto it = other->find("clock_resolution_ns"); it != other->end() && it->is_number())
        t.resolution_ns = std::max(0.0, it->get<double>());
    r.device = text_field(*other, "device").value_or("");
    r.op_name = text_field(*other, "op").value_or("");
    const auto op = find_op(r.op_name);
    t.op = op ? op->index : 0;
    return std::nullopt;
}

// One "X" event into its block; or why not.
std::optional<std::string> read_block(const nlohmann::json& e, BlockTimeline& t) {
    const auto name = text_field(e, "name");
    const long long n = name ? block_number(*name, t.grid) : -1;
    if (n < 0)
        return fmt::format("{} is not a block of the grid {}", json_excerpt(e.value("name", nlohmann::json())),
                           to_string(t.grid));
    const auto ts = e.find("ts"), dur = e.find("dur"), tid = e.find("tid");
    if (ts == e.end() || dur == e.end() || tid == e.end() || !ts->is_number() || !dur->is_number() ||
        !tid->is_number_unsigned())
        return *name + " needs \"ts\" and \"dur\" (microseconds) and \"tid\" (its SM)";
    const double start = ts->get<double>(), length = dur->get<double>();
    if (!std::isfinite(start) || !std::isfinite(length) || start < 0 || length < 0 || start > 1e12 || length > 1e12)
        return *name + ": \"ts\" and \"dur\" must be 0 or more (microseconds)";
    BlockTime& b = t.blocks[std::size_t(n)];
    if (b.ran) return *name + " appears twice";
    b.start = static_cast<unsigned long long>(std::llround(start * 1000.0));
    b.end = b.start + static_cast<unsigned long long>(std::llround(length * 1000.0));
    b.sm = static_cast<unsigned>(std::min<std::uint64_t>(tid->get<std::uint64_t>(), 1u << 20));
    b.ran = 1;
    return std::nullopt;
}

} // namespace

std::variant<RecordedTimeline, std::string> parse_timeline_trace(const std::string& text) {
    auto parsed = parse_json(text, kTraceLimits);
    if (auto* e = std::get_if<std::string>(&parsed)) return *e;
    const nlohmann::json& doc = std::get<nlohmann::json>(parsed);
    if (!doc.is_object()) return std::string("not a kcanvas --timeline-out file (the top level is not an object)");
    RecordedTimeline r;
    if (auto e = read_other_data(doc, r)) return *e;
    const auto events = doc.find("traceEvents");
    if (events == doc.end() || !events->is_array()) return std::string("no \"traceEvents\" list");
    r.timeline.blocks.assign(std::size_t(r.timeline.grid.count()), BlockTime{});
    for (const nlohmann::json& e : *events) {
        if (!e.is_object() || e.value("ph", std::string()) != "X") continue; // metadata: the rows' names
        if (auto why = read_block(e, r.timeline)) return *why;
    }
    if (r.timeline.empty()) return std::string("no block in it ran");
    return r;
}

std::variant<RecordedTimeline, std::string> read_timeline_file(const std::string& path) {
    std::string text;
    if (auto e = read_bounded_file(path, kTraceLimits.max_bytes, kTraceLimits.what, text)) return *e;
    auto r = parse_timeline_trace(text);
    if (auto* t = std::get_if<RecordedTimeline>(&r)) t->file = std::filesystem::path(path).filename().string();
    return r;
}

} // namespace kc
