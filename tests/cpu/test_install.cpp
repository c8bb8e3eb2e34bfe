// Installed like a desktop application: `cmake --install` into a temporary prefix gives a binary
// that renders headless from another folder with the data installed beside it (the build tree out
// of its reach), a menu entry that validates, the icons and the man page; --version prints each
// field a bug report needs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "tests/support/image_file.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

struct Installed {
    fs::path root;   // the test's folder
    fs::path prefix; // what cmake --install wrote
    test::ProcessResult install;
};

// The install runs the build machine's cmake; a machine the build tree was carried to (the GPU
// machine) may have none.
#define KC_SKIP_WITHOUT_CMAKE()                                                                                        \
    if (!fs::exists(KC_CMAKE)) GTEST_SKIP() << KC_CMAKE << " is not here: installs are tested where the build is"

// Installs the build tree once for the whole suite.
const Installed& installed() {
    static const Installed i = [] {
        Installed r;
        r.root = fs::path(::testing::TempDir()) / ("kc_install_" + std::to_string(::getpid()));
        r.prefix = r.root / "prefix";
        fs::remove_all(r.root);
        fs::create_directories(r.root / "elsewhere");
        // Built up piece by piece: GCC 12 warns wrongly (-Wrestrict) about "'" + std::string(...).
        std::string command = "'";
        command += KC_CMAKE;
        command += "' --install '" + std::string(KC_BUILD_DIR) + "' --prefix '" + r.prefix.string() + "'";
        r.install = test::run_shell(command);
        return r;
    }();
    return i;
}

// Runs the installed kcanvas from a folder of its own, with no system data dir to fall back on.
test::ProcessResult run_installed(const std::string& args) {
    const Installed& i = installed();
    return test::run_shell("cd '" + (i.root / "elsewhere").string() +
                           "' && XDG_DATA_DIRS=/nonexistent XDG_DATA_HOME='" + (i.root / "data").string() + "' '" +
                           (i.prefix / "bin" / "kcanvas").string() + "' " + args);
}

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Install, PutsTheBinaryDataMenuEntryIconsAndManPageInTheirPlaces) {
    KC_SKIP_WITHOUT_CMAKE();
    const Installed& i = installed();
    ASSERT_EQ(i.install.exit_code, 0) << i.install.output;
    for (const char* file : {"bin/kcanvas", "share/kcanvas/images/logo.png", "share/kcanvas/images/rose.jpg",
                             "share/kcanvas/kernels/gradient.cu", "share/kcanvas/kernels/waves.cu",
                             "share/applications/kcanvas.desktop", "share/man/man1/kcanvas.1.gz"})
        EXPECT_TRUE(fs::is_regular_file(i.prefix / file)) << file << "\n" << i.install.output;
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        const std::string square = std::to_string(size) + "x" + std::to_string(size);
        const fs::path icon = i.prefix / "share/icons/hicolor" / square / "apps/kcanvas.png";
        const auto png = test::load_png(icon.string());
        EXPECT_EQ(png.width, size) << icon;
        EXPECT_EQ(png.height, size) << icon;
    }
}

TEST(Install, TheInstalledBinaryRendersHeadlessWithItsInstalledData) {
    KC_SKIP_WITHOUT_CMAKE();
    ASSERT_EQ(installed().install.exit_code, 0) << installed().install.output;
    const auto version = run_installed("--version");
    ASSERT_EQ(version.exit_code, 0) << version.output;
    EXPECT_NE(version.output.find("\ndata: " + (installed().prefix / "share" / "kcanvas").string() + "\n"),
              std::string::npos)
        << version.output;
    // Bare names: the sample images come from the prefix's share/kcanvas, found from the binary.
    const fs::path out = installed().root / "elsewhere" / "blend.png";
    const auto render = run_installed("--headless --backend cpu --frames 2 --size 160x100 --op blend --image logo.png "
                                      "--image2 rose.jpg --out blend.png");
    ASSERT_EQ(render.exit_code, 0) << render.output;
    // The same picture as the build tree's binary paints from the source tree's files.
    const fs::path reference = installed().root / "reference.png";
    const auto built = test::run("--headless --backend cpu --frames 2 --size 160x100 --op blend --image " +
                                 std::string(KC_SOURCE_DIR) + "/assets/logo.png --image2 " + KC_SOURCE_DIR +
                                 "/assets/rose.jpg --out " + reference.string());
    ASSERT_EQ(built.exit_code, 0) << built.output;
    const auto a = test::load_png(out.string()), b = test::load_png(reference.string());
    ASSERT_EQ(a.width, 160);
    EXPECT_TRUE(a.pixels == b.pixels);
}

TEST(Install, NoPathIntoTheSourceTreeIsCompiledIn) {
    KC_SKIP_WITHOUT_CMAKE();
#ifdef KC_BUILD_NAMES_ITS_SOURCES
    GTEST_SKIP() << "a sanitizer or debug build names its sources (ASan's globals, DWARF); release builds are checked";
#endif
    ASSERT_EQ(installed().install.exit_code, 0) << installed().install.output;
    const std::string binary = file_bytes(installed().prefix / "bin" / "kcanvas");
    ASSERT_FALSE(binary.empty());
    // Neither the data's folder nor a source file's (__FILE__ in error messages). The device code's
    // line table (-lineinfo, for Nsight's source view) names its .cu files and their folders; no
    // file is looked up there, so those entries may stay.
    auto line_table_entry = [](const std::string& path) {
        const std::string name = path.substr(path.find_last_of('/') + 1);
        return name.ends_with(".cu") || name.ends_with(".cuh") || name == ".." || name.find('.') == std::string::npos;
    };
    for (const char* folder : {"/assets", "/app/", "/gpu/", "/render/"}) {
        const std::string prefix = std::string(KC_SOURCE_DIR) + folder;
        for (std::size_t at = binary.find(prefix); at != std::string::npos; at = binary.find(prefix, at + 1)) {
            const std::string path = binary.substr(at, binary.find('\0', at) - at);
            const bool device_line_table = std::string(folder) == "/gpu/" && line_table_entry(path);
            EXPECT_TRUE(device_line_table) << path;
        }
    }
}

TEST(Install, ABareNameNotShippedIsStillRefusedByName) {
    KC_SKIP_WITHOUT_CMAKE();
    const auto r = run_installed("--headless --backend cpu --frames 1 --image no-such-sample.png");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no-such-sample.png"), std::string::npos) << r.output;
}

TEST(Install, TheMenuEntryValidates) {
    KC_SKIP_WITHOUT_CMAKE();
    if (test::run_shell("command -v desktop-file-validate").exit_code != 0)
        GTEST_SKIP() << "no desktop-file-validate (Debian's desktop-file-utils)";
    ASSERT_EQ(installed().install.exit_code, 0) << installed().install.output;
    const fs::path entry = installed().prefix / "share" / "applications" / "kcanvas.desktop";
    const auto r = test::run_shell("desktop-file-validate '" + entry.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("error"), std::string::npos) << r.output;
    const std::string text = file_bytes(entry);
    EXPECT_NE(text.find("\nExec=kcanvas\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nIcon=kcanvas\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nCategories=Education;Development;Graphics;\n"), std::string::npos) << text;
}

TEST(Version, PrintsEveryFieldABugReportNeeds) {
    const auto r = test::run("--version");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string first = r.output.substr(0, r.output.find('\n'));
    std::smatch m;
    ASSERT_TRUE(
        std::regex_match(first, m,
                         std::regex(R"(kcanvas (\d+\.\d+\.\d+); commit ([0-9a-f]{12}(\+dirty)?|unknown); )"
                                    R"((CUDA \d+\.\d+ \(sm [0-9,a-z]+\)|CUDA: not built in \(CPU backend only\)); )"
                                    R"(NVRTC: (yes|no); EGL: (no|\d+ devices?); GPU: (.+))")))
        << first;
    EXPECT_EQ(m[1].str(), KC_VERSION_TEXT);
    // The commit is the source tree's (when it is a git checkout).
    const auto head = test::run_shell("git -C '" + std::string(KC_SOURCE_DIR) + "' rev-parse --short=12 HEAD");
    if (head.exit_code == 0) {
        EXPECT_EQ(m[2].str().substr(0, 12), head.output.substr(0, 12)) << "(built before the last commit? rebuild)";
    }
    EXPECT_NE(r.output.find("\ndata: " + std::string(KC_BUILD_DIR) + "/share/kcanvas\n"), std::string::npos)
        << r.output;
    // Whatever is missing says why, on a line of its own.
    if (m[5].str() == "no") {
        EXPECT_NE(r.output.find("live kernels need NVRTC"), std::string::npos) << r.output;
    }
    if (m[6].str() == "no") {
        EXPECT_NE(r.output.find("headless rendering needs EGL"), std::string::npos) << r.output;
    }
}

TEST(Version, IsListedInTheHelp) {
    const auto r = test::run("--help");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("--version"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("$XDG_DATA_DIRS/kcanvas"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
