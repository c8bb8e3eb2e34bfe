// Where kcanvas looks for its data (a build tree, an install prefix, $XDG_DATA_DIRS, in that order)
// and where it keeps the user's files (XDG config and data dirs, the Pictures folder).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "app/core/data_dir.h"
#include "app/core/kernel_files.h"
#include "app/core/user_dirs.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::path(::testing::TempDir()) / ("kc_user_files_" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void make_data_dir(const fs::path& dir) { fs::create_directories(dir / "kernels"); }

// Sets an environment variable for one scope and restores it after.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { old_ ? (void)::setenv(name_, old_->c_str(), 1) : (void)::unsetenv(name_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(DataDir, ABuildTreeIsFoundBesideTheBinary) {
    const fs::path build = fresh_dir("build");
    make_data_dir(build / "share/kcanvas");
    make_data_dir(fresh_dir("system") / "kcanvas");
    const auto s = find_data_dir(build / "kcanvas", (build.parent_path() / "system").string());
    ASSERT_TRUE(s.found);
    EXPECT_EQ(*s.found, build / "share/kcanvas");
    EXPECT_EQ(s.looked_in.size(), 1u);
}

TEST(DataDir, AnInstallPrefixIsFoundFromItsBinFolderWhereverItWasMoved) {
    const fs::path prefix = fresh_dir("moved/prefix");
    fs::create_directories(prefix / "bin");
    make_data_dir(prefix / "share/kcanvas");
    const auto s = find_data_dir(prefix / "bin/kcanvas", "/nonexistent");
    ASSERT_TRUE(s.found);
    EXPECT_EQ(*s.found, prefix / "share/kcanvas");
    ASSERT_EQ(s.looked_in.size(), 2u);
    EXPECT_EQ(s.looked_in[0], prefix / "bin/share/kcanvas");
}

TEST(DataDir, XdgDataDirsComeLastInTheirOrderAndRelativeEntriesAreIgnored) {
    const fs::path root = fresh_dir("xdg");
    make_data_dir(root / "second/kcanvas");
    make_data_dir(root / "third/kcanvas");
    const std::string dirs =
        (root / "first").string() + ":relative:" + (root / "second").string() + ":" + (root / "third").string();
    const auto s = find_data_dir(root / "bin/kcanvas", dirs);
    ASSERT_TRUE(s.found);
    EXPECT_EQ(*s.found, root / "second/kcanvas");
    ASSERT_EQ(s.looked_in.size(), 4u); // bin/share, share, first, second
    EXPECT_EQ(s.looked_in[2], root / "first/kcanvas");
}

TEST(DataDir, WithoutXdgDataDirsTheSpecsDefaultIsSearched) {
    const auto s = find_data_dir("/nonexistent/bin/kcanvas", "");
    ASSERT_GE(s.looked_in.size(), 4u);
    EXPECT_EQ(s.looked_in[2], fs::path("/usr/local/share/kcanvas"));
    EXPECT_EQ(s.looked_in[3], fs::path("/usr/share/kcanvas"));
}

TEST(DataDir, NotFoundSaysEveryPlaceItLooked) {
    const fs::path root = fresh_dir("none");
    const auto s = find_data_dir(root / "bin/kcanvas", (root / "a").string() + ":" + (root / "b").string());
    EXPECT_FALSE(s.found);
    const std::string summary = data_dir_summary(s);
    EXPECT_EQ(summary.rfind("not found (looked in ", 0), 0u) << summary;
    for (const char* part : {"/bin/share/kcanvas", "/none/share/kcanvas", "/a/kcanvas", "/b/kcanvas)"})
        EXPECT_NE(summary.find(part), std::string::npos) << part << " in " << summary;
}

TEST(DataDir, BareNamesResolveToTheShippedSamplesOtherNamesStayAsGiven) {
    // This test binary lies in <build>/tests, so it finds <build>/share/kcanvas as a prefix would.
    ASSERT_TRUE(data_dir().found) << data_dir_summary(data_dir());
    EXPECT_EQ(resolve_data_file("rose.jpg", "images"), (*data_dir().found / "images/rose.jpg").string());
    EXPECT_EQ(resolve_data_file("waves.cu", "kernels"), (*data_dir().found / "kernels/waves.cu").string());
    EXPECT_EQ(resolve_data_file("no-such.png", "images"), "no-such.png");
    EXPECT_EQ(resolve_data_file("some/dir/rose.jpg", "images"), "some/dir/rose.jpg");
    EXPECT_EQ(resolve_data_file("", "images"), "");
    // A file of that name here wins over the sample.
    const fs::path here = fresh_dir("here");
    std::ofstream(here / "rose.jpg") << "mine";
    const fs::path old_cwd = fs::current_path();
    fs::current_path(here);
    EXPECT_EQ(resolve_data_file("rose.jpg", "images"), "rose.jpg");
    fs::current_path(old_cwd);
}

TEST(UserDirs, ConfigAndDataFollowXdgThenHome) {
    const fs::path root = fresh_dir("xdg_homes");
    {
        ScopedEnv config("XDG_CONFIG_HOME", (root / "config").string()),
            data("XDG_DATA_HOME", (root / "data").string());
        EXPECT_EQ(config_dir(), (root / "config/kcanvas").string());
        EXPECT_TRUE(fs::is_directory(root / "config/kcanvas")); // created for imgui.ini and settings.conf
        EXPECT_EQ(*user_data_dir(), root / "data/kcanvas");
        EXPECT_EQ(rescue_dir(), root / "data/kcanvas/rescued");
    }
    ScopedEnv config("XDG_CONFIG_HOME", ""), data("XDG_DATA_HOME", ""), home("HOME", (root / "home").string());
    EXPECT_EQ(config_dir(), (root / "home/.config/kcanvas").string());
    EXPECT_EQ(*user_data_dir(), root / "home/.local/share/kcanvas");
}

TEST(UserDirs, PicturesGoWhereXdgUserDirSaysElseToTheWorkingDirectory) {
    const fs::path root = fresh_dir("pictures");
    fs::create_directories(root / "home/Bilder");
    const std::string home = (root / "home").string();
    EXPECT_EQ(pictures_dir_from((root / "home/Bilder").string(), home), root / "home/Bilder");
    const fs::path cwd = fs::current_path();
    EXPECT_EQ(pictures_dir_from(home, home), cwd);       // xdg-user-dir's answer when none is set
    EXPECT_EQ(pictures_dir_from(home + "/", home), cwd); // the same folder, spelt differently
    EXPECT_EQ(pictures_dir_from((root / "home/Pictures").string(), home), cwd); // named but missing
    EXPECT_EQ(pictures_dir_from("", home), cwd);                                // no xdg-user-dir
    EXPECT_EQ(pictures_dir_from("Pictures", home), cwd);                        // not absolute
}

TEST(UserDirs, AFaultedKernelIsRescuedIntoTheDataDirWithItsFullPath) {
    const fs::path root = fresh_dir("rescue");
    ScopedEnv data("XDG_DATA_HOME", (root / "data").string());
    const std::string note = save_faulted_kernel("// the user's work\n");
    ASSERT_EQ(
        note.rfind("your kernel's source is saved in " + (root / "data/kcanvas/rescued/kcanvas-kernel-").string(), 0),
        0u)
        << note;
    const fs::path saved = note.substr(note.find('/'));
    std::ifstream in(saved);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "// the user's work\n");
}

TEST(UserDirs, ARescueFallsBackToTheWorkingDirectoryWhenTheDataDirCannotBeWritten) {
    const fs::path root = fresh_dir("rescue_blocked");
    std::ofstream(root / "not-a-dir") << "a file where the data dir would be";
    ScopedEnv data("XDG_DATA_HOME", (root / "not-a-dir").string());
    const fs::path old_cwd = fs::current_path();
    fs::current_path(root);
    const std::string note = save_faulted_kernel("// kept anyway\n");
    fs::current_path(old_cwd);
    ASSERT_EQ(note.rfind("your kernel's source is saved in " + (root / "kcanvas-kernel-").string(), 0), 0u) << note;
}

} // namespace
} // namespace kc
