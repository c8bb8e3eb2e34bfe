// Text from files kcanvas did not write (issue 24): read only from regular files of a stated size,
// JSON bounded in depth before it is parsed, and quoted escaped in messages.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "app/core/json_file.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {
namespace {

std::string temp_dir() {
    const std::string dir = ::testing::TempDir() + "/kc_untrusted";
    std::filesystem::create_directories(dir);
    return dir;
}

TEST(UntrustedText, QuotedEscapesWhatATerminalWouldActOn) {
    EXPECT_EQ(quoted("plain name.png"), "'plain name.png'");
    EXPECT_EQ(quoted("caf\xc3\xa9"), "'caf\xc3\xa9'"); // UTF-8 stays readable
    EXPECT_EQ(quoted("\x1b]0;owned\x07"), R"('\e]0;owned\x07')");
    EXPECT_EQ(quoted("a\nb\tc\x7f"), R"('a\nb\tc\x7f')");
    EXPECT_EQ(quoted("\xc2\x9b"
                     "2J"),
              R"('\u009b2J')"); // a C1 CSI, as UTF-8
    EXPECT_EQ(quoted("\x9b"
                     "2J\xff"),
              R"('\x9b2J\xff')"); // bytes that are not UTF-8
    EXPECT_EQ(quoted("it's a\\b"), R"('it\'s a\\b')");
    EXPECT_EQ(quoted(std::string(100, 'x'), 10), "'xxxxxxxxxx'...");
    EXPECT_EQ(escaped("dir/\x1b[2J.json"), R"(dir/\e[2J.json)");
}

TEST(UntrustedText, OnlyRegularFilesOfTheStatedSizeAreRead) {
    const std::string dir = temp_dir(), fifo = dir + "/fifo", big = dir + "/big", zero = dir + "/zero";
    std::filesystem::remove(fifo), std::filesystem::remove(zero);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::filesystem::create_symlink("/dev/zero", zero);
    std::ofstream(big) << std::string(1001, 'x');
    std::string text = "unchanged";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(read_bounded_file(fifo, 1000, "a test file", text).value_or(""),
              "cannot read '" + fifo + "': not a regular file (a FIFO)");
    EXPECT_EQ(read_bounded_file(zero, 1000, "a test file", text).value_or(""),
              "cannot read '" + zero + "': not a regular file (a device)");
    EXPECT_EQ(read_bounded_file(dir, 1000, "a test file", text).value_or(""),
              "cannot read '" + dir + "': it is a directory");
    EXPECT_EQ(read_bounded_file(big, 1000, "a test file", text).value_or(""),
              "cannot read '" + big + "': 1001 bytes, over the 1000 bytes a test file may hold");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1)); // nothing blocked
    EXPECT_EQ(text, "unchanged");
    ASSERT_FALSE(read_bounded_file(big, 1001, "a test file", text));
    EXPECT_EQ(text, std::string(1001, 'x'));
}

TEST(UntrustedText, JsonIsBoundedBeforeItIsParsed) {
    const JsonLimits limits{.max_bytes = 100, .max_depth = 3, .what = "a test file"};
    EXPECT_TRUE(std::holds_alternative<nlohmann::json>(parse_json(R"({"a": [[1, "[[[["]]})", limits)));
    EXPECT_EQ(std::get<std::string>(parse_json("{\"a\":\n [[[1]]]}", limits)),
              "line 2, column 4: nested deeper than the 3 levels a test file may hold");
    EXPECT_EQ(std::get<std::string>(parse_json(std::string(101, ' '), limits)),
              "101 bytes, over the 100 bytes a test file may hold");
    EXPECT_EQ(std::get<std::string>(parse_json("{\"a\": 1,\n\"b\": tru}", limits)),
              "not valid JSON at line 2, column 9: syntax error while parsing value - invalid literal; last read: "
              "'\"b\": tru}'");
    EXPECT_EQ(json_excerpt(nlohmann::json("\x1b]0;x\x07")), R"("\u001b]0;x\u0007")");
    EXPECT_EQ(json_excerpt(nlohmann::json(std::string(100, 'y')), 5), "\"yyyy...");
}

} // namespace
} // namespace kc
