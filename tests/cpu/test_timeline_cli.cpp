// `kcanvas --headless --timeline-out FILE` on the cpu backend: the Chrome-trace JSON holds every
// block of the grid once, on an emulator worker's row; bad input exits 2 and says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_process.h"

namespace kc {
namespace {

using test::run;

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "/kc_tl_" + name; }

nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

TEST(TimelineCli, WritesEveryBlockOnceOnAWorkersRow) {
    const std::string path = temp_path("trace.json");
    std::filesystem::remove(path);
    const auto r = run("--headless --backend cpu --op gradient --size 100x60 --block 16x8 --frames 2 "
                       "--timeline-out " +
                       path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json trace = read_json(path);
    std::set<std::pair<int, int>> blocks;
    std::set<int> rows;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "M") rows.insert(e["tid"].get<int>());
        if (e["ph"] != "X") continue;
        int bx = -1, by = -1;
        ASSERT_EQ(std::sscanf(e["name"].get<std::string>().c_str(), "block (%d,%d)", &bx, &by), 2) << e.dump();
        EXPECT_TRUE(blocks.insert({bx, by}).second) << e.dump() << " twice";
        EXPECT_TRUE(rows.contains(e["tid"].get<int>())) << "a block on an unnamed row: " << e.dump();
        EXPECT_GE(e["dur"].get<double>(), 0.0);
    }
    EXPECT_EQ(blocks.size(), 7u * 8u) << "grid 7x8 (100x60 in 16x8 blocks)";
    EXPECT_EQ(trace["otherData"]["rows"], "cpu emulator workers");
    EXPECT_EQ(trace["otherData"]["grid"], "7x8x1");
}

TEST(TimelineCli, BadInputExitsWith2AndSaysWhy) {
    struct Case {
        std::string args, message;
    };
    const std::string path = temp_path("bad.json");
    for (const Case& c :
         {Case{"--timeline-out " + path + " --op gradient --script /nope", "needs --headless"},
          Case{"--headless --backend cpu --op histogram --timeline-out " + path, "op histogram records no SM timeline"},
          Case{"--headless --backend cpu --timeline-out /nope/dir/t.json", "--timeline-out"}}) {
        const auto r = run(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    }
}

} // namespace
} // namespace kc
