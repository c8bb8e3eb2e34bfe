#include "gpu/block_timeline.h"

#include <algorithm>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "gpu/registry.h"

namespace kc {

bool BlockTimeline::empty() const {
    return std::none_of(blocks.begin(), blocks.end(), [](const BlockTime& b) { return b.ran != 0; });
}

unsigned long long BlockTimeline::first_start() const {
    unsigned long long t = std::numeric_limits<unsigned long long>::max();
    for (const BlockTime& b : blocks)
        if (b.ran) t = std::min(t, b.start);
    return empty() ? 0 : t;
}

unsigned long long BlockTimeline::last_end() const {
    unsigned long long t = 0;
    for (const BlockTime& b : blocks)
        if (b.ran) t = std::max(t, b.end);
    return t;
}

unsigned long long BlockTimeline::last_start() const {
    unsigned long long t = 0;
    for (const BlockTime& b : blocks)
        if (b.ran) t = std::max(t, b.start);
    return t;
}

Dim3 block_index(const Dim3& grid, long long n) {
    const long long gx = std::max(1, grid.x), gy = std::max(1, grid.y);
    return Dim3{static_cast<int>(n % gx), static_cast<int>((n / gx) % gy), static_cast<int>(n / (gx * gy))};
}

std::string block_label(const Dim3& grid, long long n) {
    const Dim3 b = block_index(grid, n);
    if (grid.z > 1) return fmt::format("block ({},{},{})", b.x, b.y, b.z);
    return fmt::format("block ({},{})", b.x, b.y);
}

std::vector<unsigned> timeline_rows(const BlockTimeline& t) {
    std::set<unsigned> rows;
    for (const BlockTime& b : t.blocks)
        if (b.ran) rows.insert(b.sm);
    return {rows.begin(), rows.end()};
}

std::string row_label(const BlockTimeline& t, unsigned sm) {
    return t.source == TimelineSource::CpuWorkers ? fmt::format("worker {}", sm) : fmt::format("SM {}", sm);
}

TimelineWaves timeline_waves(const BlockTimeline& t) {
    TimelineWaves w;
    std::vector<unsigned long long> starts;
    unsigned long long first_end = std::numeric_limits<unsigned long long>::max();
    for (const BlockTime& b : t.blocks)
        if (b.ran) starts.push_back(b.start), first_end = std::min(first_end, b.end);
    w.blocks = static_cast<long long>(starts.size());
    if (starts.empty()) return w;
    std::sort(starts.begin(), starts.end());
    // A block that starts at the very tick the first one ends took its place: not of the first wave.
    w.first_wave = std::max<long long>(1, std::lower_bound(starts.begin(), starts.end(), first_end) - starts.begin());
    w.waves = (w.blocks + w.first_wave - 1) / w.first_wave;
    w.tail_blocks = w.blocks % w.first_wave;
    w.tail_start = starts[static_cast<std::size_t>((w.waves - 1) * w.first_wave)];
    if (w.tail_blocks == 0) return w; // the last wave is full: no tail, no SM idle for it
    std::set<unsigned> busy;
    for (const BlockTime& b : t.blocks)
        if (b.ran && b.start >= w.tail_start) busy.insert(b.sm);
    for (unsigned row : timeline_rows(t))
        if (!busy.count(row)) w.idle_in_tail.push_back(row);
    return w;
}

OccupancyFigures cpu_worker_occupancy(const Dim3& block, const Dim3& grid, int workers) {
    const int threads = static_cast<int>(std::max(1LL, block.count()));
    return occupancy_figures(block, grid, 1, workers, threads);
}

namespace {

// `text` as a JSON string's contents: quotes and backslashes escaped, control characters dropped.
std::string json_text(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20) continue;
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

} // namespace

std::string timeline_chrome_trace(const BlockTimeline& t, std::string_view device) {
    const unsigned long long t0 = t.first_start();
    std::string out = "{\"traceEvents\":[\n";
    bool first = true;
    auto add = [&](const std::string& event) {
        out += first ? "" : ",\n";
        out += event;
        first = false;
    };
    for (unsigned row : timeline_rows(t))
        add(fmt::format(R"({{"name":"thread_name","ph":"M","pid":0,"tid":{},"args":{{"name":"{}"}}}})", row,
                        row_label(t, row)));
    for (std::size_t n = 0; n < t.blocks.size(); ++n) {
        const BlockTime& b = t.blocks[n];
        if (!b.ran) continue;
        add(fmt::format(R"({{"name":"{}","ph":"X","ts":{:.3f},"dur":{:.3f},"pid":0,"tid":{}}})",
                        block_label(t.grid, static_cast<long long>(n)), double(b.start - t0) / 1000.0,
                        double(b.end - b.start) / 1000.0, b.sm));
    }
    out +=
        fmt::format("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{{\"rows\":\"{}\",\"block\":\"{}\",\"grid\":\"{}\","
                    "\"clock_resolution_ns\":{:.1f},\"op\":\"{}\",\"device\":\"{}\"}}}}\n",
                    t.source == TimelineSource::CpuWorkers ? "cpu emulator workers" : "SMs (%smid)", to_string(t.block),
                    to_string(t.grid), t.resolution_ns,
                    json_text(t.op >= 0 && std::size_t(t.op) < op_registry().size() ? op_registry()[t.op].name : ""),
                    json_text(device));
    return out;
}

} // namespace kc
