// compile_cpu_kernel(): the user's kernel and the CPU prelude through the system's C++ compiler
// into a shared object, cached by the hash of everything that goes into it.
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#include "cpukernel/cpu_kernel.h"
#include "cpukernel/source_scan.h"
#include "gpu/prelude/kcanvas_cpu_abi.h"
#include "gpu/prelude/prelude_files.h"

extern char** environ;

namespace kc {

namespace {

namespace fs = std::filesystem;

// -O2 compiles a starter in about the time of -O1 and runs it faster; no exceptions, no RTTI and
// no standard library (math comes from the process's libm) keep the compile and the link short;
// stack-clash protection makes a frame larger than a page probe each page (a fiber's guard page).
// No -march=native, no -ffast-math and no contraction into fused multiply-adds: the pictures stay
// those of the GPU's IEEE arithmetic (NVRTC compiles with --fmad=false to match).
const std::vector<std::string> kFlags = {"-x",
                                         "c++",
                                         "-std=c++17",
                                         "-O2",
                                         "-fPIC",
                                         "-shared",
                                         "-fvisibility=hidden",
                                         "-fno-math-errno",
                                         "-ffp-contract=off",
                                         "-fno-exceptions",
                                         "-fno-rtti",
                                         "-fstack-clash-protection",
                                         "-fdiagnostics-color=never",
                                         "-nostdlib"};
constexpr auto kCompileLimit = std::chrono::seconds(60);
constexpr std::size_t kKeptBuilds = 256; // the cache keeps this many kernels, the newest
constexpr std::size_t kMaxLogBytes = 256 * 1024;

// An executable file named `name`: a path as given, or a name looked up on PATH.
std::optional<fs::path> executable(const std::string& name) {
    auto runnable = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
    };
    if (name.find('/') != std::string::npos) return runnable(name) ? std::optional<fs::path>(name) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && runnable(fs::path(dir) / name)) return fs::path(dir) / name;
    return std::nullopt;
}

struct Compiler {
    std::optional<fs::path> path;
    std::string error;
};

Compiler find_compiler() {
    if (const char* named = std::getenv("KCANVAS_CXX"); named && *named) {
        if (auto p = executable(named)) return {p, ""};
        return {std::nullopt, fmt::format("KCANVAS_CXX names '{}', which is not an executable file (on PATH)", named)};
    }
    for (const char* name : {"g++", "clang++"})
        if (auto p = executable(name)) return {p, ""};
    return {std::nullopt, "kernels on the CPU need a C++ compiler, and neither g++ nor clang++ is on PATH: install "
                          "Debian's g++ (sudo apt install g++), or name a compiler in KCANVAS_CXX"};
}

// FNV-1a, 64 bits: stable across builds and runs (std::hash is not), enough to name a cache entry.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ULL) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h;
}

// What names the build: the text, the compiler (path, size and time, so an upgrade rebuilds), the flags.
std::string build_key(const std::string& text, const fs::path& compiler) {
    std::error_code ec;
    const fs::path real = fs::canonical(compiler, ec);
    struct stat st {};
    ::stat((ec ? compiler : real).c_str(), &st);
    std::string what = fmt::format("abi {}\ncompiler {} {} {}\n", KC_CPU_ABI, (ec ? compiler : real).string(),
                                   st.st_size, st.st_mtime);
    for (const std::string& f : kFlags) what += f + ' ';
    return fmt::format("{:016x}", fnv1a(text, fnv1a(what)));
}

// g++'s and clang's "kernel.cu:7:12: error: ..." as NVRTC writes it, "kernel.cu(7): error: ...", so
// the editor finds the user's lines in either.
std::string nvrtc_style(const std::string& log) {
    static const std::regex position(R"(^([^:\n ][^:\n]*):(\d+):(\d+): )", std::regex::multiline);
    return std::regex_replace(log, position, "$1($2): ");
}

std::string read_bounded(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::string s(kMaxLogBytes, '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    s.resize(static_cast<std::size_t>(in.gcount()));
    if (s.size() == kMaxLogBytes) s += "\n(the compiler's messages go on; the first 256 KiB are shown)\n";
    return s;
}

bool write_file(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out.flush());
}

// Runs the compiler on `source_file` into `so_file`, its messages into `log_file`. Returns its exit
// status, or why it could not run or was stopped.
std::optional<std::string> run_compiler(const fs::path& compiler, const fs::path& source_file, const fs::path& so_file,
                                        const fs::path& log_file, int& status) {
    std::vector<std::string> args = {compiler.string()};
    args.insert(args.end(), kFlags.begin(), kFlags.end());
    args.insert(args.end(), {"-o", so_file.string(), source_file.string(), "-lm"});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, compiler.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return fmt::format("could not run {}: {}", compiler.string(), std::strerror(spawned));
    const auto deadline = std::chrono::steady_clock::now() + kCompileLimit;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return std::nullopt;
        if (done < 0 && errno != EINTR) return fmt::format("lost the compiler: {}", std::strerror(errno));
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return fmt::format("{} took more than {} s on this kernel and was stopped", compiler.filename().string(),
                               kCompileLimit.count());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

// Deletes the oldest compiled kernels past the newest kKeptBuilds (every edit compiles a new one).
void forget_old_builds(const fs::path& cache_dir) {
    std::vector<std::pair<fs::file_time_type, fs::path>> built;
    std::error_code ec;
    for (fs::directory_iterator it(cache_dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".so" && it->is_regular_file(ec))
            built.emplace_back(it->last_write_time(ec), it->path());
    if (built.size() <= kKeptBuilds) return;
    std::sort(built.begin(), built.end());
    for (std::size_t k = 0; k + kKeptBuilds < built.size(); ++k) fs::remove(built[k].second, ec);
}

// The whole text: prelude, the user's lines, the entry points with what the scan found.
std::optional<std::string> full_text(std::string_view source, const std::string& name, KernelMode mode,
                                     const SourceScan& scan, bool count_accesses, std::string& text) {
    const CompileText kernel = kernel_text(source, name, mode, KernelTarget::Cpu, count_accesses);
    if (kernel.refusal) return kernel.refusal;
    text = fmt::format("{}\n#line 1 \"kcanvas_entry_cpu.h\"\n#define KC_CPU_RAW {}\n#define KC_CPU_BARRIERS {}\n{}",
                       kernel.text, mode == KernelMode::Raw ? 1 : 0, scan.barriers ? 1 : 0, prelude::entry_cpu);
    return std::nullopt;
}

CpuKernelBuild build(std::string_view source, std::string_view file_name, KernelMode mode, const fs::path& cache_dir,
                     bool count_accesses) {
    CpuKernelBuild b;
    b.mode = mode;
    const std::string name(file_name.empty() ? "kernel.cu" : file_name);
    const SourceScan scan = scan_source(source, name);
    if (scan.refusal) return b.log = *scan.refusal, b;
    std::string text;
    if (auto why = full_text(source, name, mode, scan, count_accesses, text)) return b.log = *why, b;
    const Compiler compiler = find_compiler();
    if (!compiler.path) return b.log = compiler.error, b;
    std::error_code ec;
    fs::create_directories(cache_dir, ec);
    if (ec) return b.log = fmt::format("cannot create the kernel cache {}: {}", cache_dir.string(), ec.message()), b;
    const std::string key = build_key(text, *compiler.path);
    const fs::path so = cache_dir / (key + ".so");
    if (fs::is_regular_file(so, ec) && fs::file_size(so, ec) > 0 && !ec) {
        b.ok = b.cached = true, b.so_path = so;
        return b;
    }
    // Private names while building: two processes, or two threads, may build the same kernel at once.
    static std::atomic<unsigned> builds{0};
    const std::string mine = fmt::format("{}.{}.{}", key, getpid(), builds++);
    const fs::path source_file = cache_dir / (mine + ".cu"), log_file = cache_dir / (mine + ".log"),
                   tmp_so = cache_dir / (mine + ".so.tmp");
    if (!write_file(source_file, text)) return b.log = fmt::format("cannot write {}", source_file.string()), b;
    int status = 0;
    const std::optional<std::string> failed = run_compiler(*compiler.path, source_file, tmp_so, log_file, status);
    b.log = nvrtc_style(read_bounded(log_file));
    fs::remove(source_file, ec), fs::remove(log_file, ec);
    if (failed) return b.log += *failed, fs::remove(tmp_so, ec), b;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fs::remove(tmp_so, ec);
        if (b.log.empty()) b.log = fmt::format("{} failed (status {})", compiler.path->string(), status);
        return b;
    }
    fs::rename(tmp_so, so, ec);
    if (ec) return b.log += fmt::format("cannot keep the compiled kernel as {}: {}", so.string(), ec.message()), b;
    b.ok = true, b.so_path = so;
    forget_old_builds(cache_dir);
    return b;
}

} // namespace

std::optional<std::string> cpu_compiler_unavailable_reason() {
    const Compiler c = find_compiler();
    return c.path ? std::nullopt : std::optional<std::string>(c.error);
}

CpuKernelBuild compile_cpu_kernel(std::string_view source, std::string_view file_name, KernelMode mode,
                                  const std::filesystem::path& cache_dir, bool count_accesses) {
    const auto t0 = std::chrono::steady_clock::now();
    CpuKernelBuild b = build(source, file_name, mode, cache_dir, count_accesses);
    b.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return b;
}

} // namespace kc
