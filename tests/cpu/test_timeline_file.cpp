// A timeline file read back (app/core/timeline_file.h, `--timeline-in`): what --timeline-out
// writes comes back block for block, and a file that is not one is refused with the reason.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "app/core/timeline_file.h"
#include "gpu/block_timeline.h"
#include "gpu/registry.h"

namespace kc {
namespace {

// A grid of 7x5 blocks on SMs numbered with gaps, random starts and lengths in ns, two never run.
BlockTimeline random_timeline() {
    BlockTimeline t;
    t.op = find_op("mandelbrot")->index;
    t.block = {32, 8, 1}, t.grid = {7, 5, 1};
    t.resolution_ns = 32;
    std::mt19937 rng(7);
    for (long long n = 0; n < t.grid.count(); ++n) {
        BlockTime b;
        b.start = 5'000'000 + rng() % 40'000, b.end = b.start + 1 + rng() % 9'000;
        b.sm = 3 * (rng() % 11), b.ran = n != 4 && n != 30;
        t.blocks.push_back(b);
    }
    return t;
}

RecordedTimeline parsed(const std::string& text) {
    auto r = parse_timeline_trace(text);
    if (auto* e = std::get_if<std::string>(&r)) ADD_FAILURE() << *e;
    return std::get_if<RecordedTimeline>(&r) ? std::get<RecordedTimeline>(r) : RecordedTimeline{};
}

std::string refusal(const std::string& text) {
    auto r = parse_timeline_trace(text);
    return std::get_if<std::string>(&r) ? std::get<std::string>(r) : "(read)";
}

TEST(TimelineFile, WhatTimelineOutWritesComesBackBlockForBlock) {
    const BlockTimeline t = random_timeline();
    const RecordedTimeline r = parsed(timeline_chrome_trace(t, "NVIDIA H200 (CUDA device 0) \"x\""));
    EXPECT_EQ(r.device, "NVIDIA H200 (CUDA device 0) \"x\"");
    EXPECT_EQ(r.op_name, "mandelbrot");
    EXPECT_EQ(r.timeline.op, t.op);
    EXPECT_EQ(r.timeline.source, TimelineSource::Gpu);
    EXPECT_EQ(r.timeline.resolution_ns, 32);
    EXPECT_EQ(to_string(r.timeline.grid), "7x5x1");
    EXPECT_EQ(to_string(r.timeline.block), "32x8x1");
    ASSERT_EQ(r.timeline.blocks.size(), t.blocks.size());
    for (std::size_t n = 0; n < t.blocks.size(); ++n) {
        const BlockTime &want = t.blocks[n], &got = r.timeline.blocks[n];
        ASSERT_EQ(got.ran, want.ran) << n;
        if (!want.ran) continue;
        // The file's times are from the earliest start, in µs to the ns.
        EXPECT_EQ(got.start - r.timeline.first_start(), want.start - t.first_start()) << n;
        EXPECT_EQ(got.end - got.start, want.end - want.start) << n;
        EXPECT_EQ(got.sm, want.sm) << n;
    }
    EXPECT_EQ(timeline_waves(r.timeline).tail_blocks, timeline_waves(t).tail_blocks);
}

TEST(TimelineFile, AFileThatIsNotATimelineIsRefusedWithTheReason) {
    const std::string good = timeline_chrome_trace(random_timeline(), "gpu");
    std::string outside = good, twice = good;
    outside.replace(outside.find("\"block (6,4)\""), 13, "\"block (7,4)\"");
    const auto first = twice.find("\"block (1,0)\"");
    twice.replace(first, 13, "\"block (2,0)\"");
    EXPECT_NE(refusal("[1, 2]").find("not a kcanvas --timeline-out file"), std::string::npos);
    EXPECT_NE(refusal("{\"traceEvents\": []}").find("no \"otherData\""), std::string::npos);
    EXPECT_NE(refusal(outside).find("\"block (7,4)\" is not a block of the grid 7x5x1"), std::string::npos)
        << refusal(outside);
    EXPECT_NE(refusal(twice).find("block (2,0) appears twice"), std::string::npos) << refusal(twice);
    EXPECT_NE(refusal(R"({"otherData": {"block": "32x8", "grid": "2000x2000"}, "traceEvents": []})")
                  .find("4000000 blocks, over the 1048576"),
              std::string::npos);
    EXPECT_NE(refusal(R"({"otherData": {"block": "32x8", "grid": "-2x-2"}, "traceEvents": []})").find("WxHxD"),
              std::string::npos);
    EXPECT_NE(refusal(std::string(20, '[') + std::string(20, ']')).find("nested deeper"), std::string::npos);
    const std::string negative = R"j({"otherData": {"block": "32x8", "grid": "2x2"}, "traceEvents": [)j"
                                 R"j({"name": "block (0,0)", "ph": "X", "ts": -1, "dur": 1, "tid": 0}]})j";
    EXPECT_NE(refusal(negative).find("must be 0 or more"), std::string::npos) << refusal(negative);
    EXPECT_NE(refusal(R"({"otherData": {"block": "32x8", "grid": "2x2"}, "traceEvents": []})").find("no block"),
              std::string::npos);
}

TEST(TimelineFile, AMissingOrOversizedFileIsRefused) {
    auto r = read_timeline_file("/nope/t.json");
    ASSERT_TRUE(std::holds_alternative<std::string>(r));
    EXPECT_NE(std::get<std::string>(r).find("/nope/t.json"), std::string::npos);
    r = read_timeline_file("/dev/zero");
    ASSERT_TRUE(std::holds_alternative<std::string>(r));
    EXPECT_NE(std::get<std::string>(r).find("not a regular file"), std::string::npos) << std::get<std::string>(r);
}

} // namespace
} // namespace kc
