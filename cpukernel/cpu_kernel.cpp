// CpuKernelModule: a compiled kernel's shared object loaded, and its grid run over a pool of worker
// threads that take blocks in launch order from one counter.
#include "cpukernel/cpu_kernel.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cpukernel/fiber_block.h"
#include "gpu/prelude/kcanvas_cpu_abi.h"

namespace kc {

namespace {

constexpr long long kMaxThreadsPerBlock = 1024; // CUDA's, kept so a kernel moves between backends

// The shared object's entry points (kcanvas_cpu_abi.h).
struct Entry {
    unsigned (*abi)() = nullptr;
    int (*mode)() = nullptr;
    int (*barriers)() = nullptr;
    KcCpuThreadState* (*state)() = nullptr;
    void (*set_host)(const KcCpuHostCalls*) = nullptr;
    void (*begin)(const KcCpuLaunchArgs*) = nullptr;
    void (*run_block)() = nullptr;
    void (*run_thread)() = nullptr;
};

const KcCpuHostCalls kHostCalls = {&FiberBlockRunner::barrier};

KcCpuDim block_coords(unsigned long long b, const Dim3& grid) {
    const unsigned long long gx = static_cast<unsigned long long>(grid.x), gy = static_cast<unsigned long long>(grid.y);
    return KcCpuDim{static_cast<unsigned>(b % gx), static_cast<unsigned>(b / gx % gy),
                    static_cast<unsigned>(b / (gx * gy))};
}

} // namespace

struct CpuKernelModule::State {
    void* library = nullptr;
    Entry entry;
    KernelMode mode = KernelMode::Checked;
    bool barriers = false;

    // One launch, shared by the workers.
    struct Job {
        unsigned long long blocks = 0, chunk = 1;
        std::atomic<unsigned long long> next{0};
        KcCpuDim block_dim{};
        Dim3 grid;
        const std::atomic<bool>* stop = nullptr;
        int participants = 1;
        std::mutex error_mutex;
        std::optional<std::string> first_error;
        unsigned long long errors = 0;
    };
    struct Worker {
        std::thread thread;
        FiberBlockRunner fibers;
    };

    std::mutex run_mutex; // one launch at a time (the library's launch settings are global)
    std::mutex pool_mutex;
    std::condition_variable wake, finished;
    std::vector<std::unique_ptr<Worker>> workers; // [0]: the thread that calls run()
    unsigned long long generation = 0;
    int active = 0;
    bool quit = false;
    Job* job = nullptr;

    ~State() {
        {
            std::lock_guard lock(pool_mutex);
            quit = true;
        }
        wake.notify_all();
        for (auto& w : workers)
            if (w->thread.joinable()) w->thread.join();
        if (library) dlclose(library);
    }

    void grow(int count) {
        if (workers.empty()) workers.push_back(std::make_unique<Worker>());
        while (static_cast<int>(workers.size()) < count) {
            const int index = static_cast<int>(workers.size());
            workers.push_back(std::make_unique<Worker>());
            workers.back()->thread = std::thread([this, index] { serve(index); });
        }
    }

    void serve(int index) {
        entry.state(); // this thread's copy of the kernel's thread-locals exists before any sandbox
        unsigned long long seen = 0;
        for (;;) {
            {
                std::unique_lock lock(pool_mutex);
                wake.wait(lock, [&] { return quit || generation != seen; });
                if (quit) return;
                seen = generation;
            }
            if (index < job->participants) work(index);
            std::lock_guard lock(pool_mutex);
            if (--active == 0) finished.notify_all();
        }
    }

    void work(int index) {
        Job& j = *job;
        KcCpuThreadState* state = entry.state();
        state->worker = static_cast<unsigned>(index);
        FiberBlockRunner& fibers = workers[static_cast<std::size_t>(index)]->fibers;
        for (;;) {
            if (j.stop && j.stop->load(std::memory_order_relaxed)) return;
            const unsigned long long first = j.next.fetch_add(j.chunk, std::memory_order_relaxed);
            if (first >= j.blocks) return;
            const unsigned long long last = std::min(j.blocks, first + j.chunk);
            for (unsigned long long b = first; b < last; ++b) {
                state->block_idx = block_coords(b, j.grid);
                std::optional<std::string> why;
                if (barriers) {
                    why = fibers.run(state, j.block_dim, entry.run_thread);
                } else {
                    entry.run_block();
                    if (const int line = FiberBlockRunner::take_stray_barrier())
                        why = fmt::format("line {}: a __syncthreads() that kcanvas could not see in your source (a "
                                          "macro that pastes its name?) ran without waiting; write __syncthreads "
                                          "out where it is called",
                                          line);
                }
                if (why) {
                    std::lock_guard lock(j.error_mutex);
                    if (j.errors++ == 0) j.first_error = std::move(why);
                }
            }
        }
    }
};

CpuKernelModule::CpuKernelModule(std::unique_ptr<State> state) : state_(std::move(state)) {}
CpuKernelModule::CpuKernelModule(CpuKernelModule&&) noexcept = default;
CpuKernelModule& CpuKernelModule::operator=(CpuKernelModule&&) noexcept = default;
CpuKernelModule::~CpuKernelModule() = default;

CpuKernelModule CpuKernelModule::load(const std::filesystem::path& so_path) {
    auto s = std::make_unique<State>();
    s->library = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!s->library) {
        const char* why = dlerror();
        throw std::runtime_error(
            fmt::format("cannot load the compiled kernel {}: {}", so_path.string(), why ? why : "unknown error"));
    }
    Entry& e = s->entry;
    auto resolve = [&](auto& fn, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(s->library, symbol));
        if (!fn)
            throw std::runtime_error(
                fmt::format("{} is not a kcanvas CPU kernel: it lacks {}", so_path.string(), symbol));
    };
    resolve(e.abi, "kc_cpu_abi");
    if (e.abi() != KC_CPU_ABI)
        throw std::runtime_error(fmt::format("{} was built for another kcanvas (CPU kernel ABI {}, this one {})",
                                             so_path.string(), e.abi(), KC_CPU_ABI));
    resolve(e.mode, "kc_cpu_mode");
    resolve(e.barriers, "kc_cpu_barriers");
    resolve(e.state, "kc_cpu_state");
    resolve(e.set_host, "kc_cpu_set_host");
    resolve(e.begin, "kc_cpu_begin");
    resolve(e.run_block, "kc_cpu_run_block");
    resolve(e.run_thread, "kc_cpu_run_thread");
    e.set_host(&kHostCalls);
    s->mode = e.mode() ? KernelMode::Raw : KernelMode::Checked;
    s->barriers = e.barriers() != 0;
    return CpuKernelModule(std::move(s));
}

void CpuKernelModule::start_workers(int workers, unsigned fibers) {
    std::lock_guard lock(state_->run_mutex);
    state_->grow(std::max(1, workers));
    state_->entry.state();
    if (state_->barriers)
        for (auto& w : state_->workers) w->fibers.reserve(fibers);
}

namespace {

// Why the CPU cannot run `l`, or nullopt.
std::optional<std::string> launch_refusal(const CpuKernelLaunch& l, KernelMode mode) {
    for (const Dim3* d : {&l.grid, &l.block})
        if (d->x < 1 || d->y < 1 || d->z < 1)
            return fmt::format("{} ({},{},{}) has a size below 1", d == &l.grid ? "grid" : "block", d->x, d->y, d->z);
    if (l.block.count() > kMaxThreadsPerBlock)
        return fmt::format("a block of {} threads: at most {} run in one block (as in CUDA)", l.block.count(),
                           kMaxThreadsPerBlock);
    if (l.width < 1 || l.height < 1 || !l.out || !l.a || !l.b)
        return fmt::format("a launch needs a canvas and both images ({}x{})", l.width, l.height);
    if (mode == KernelMode::Checked && !l.check.violation) return "a checked launch needs its violation record";
    return std::nullopt;
}

} // namespace

std::optional<std::string> CpuKernelModule::run(const CpuKernelLaunch& l, int workers,
                                                const std::atomic<bool>* stop) const {
    State& s = *state_;
    if (auto why = launch_refusal(l, s.mode)) return why;
    std::lock_guard run_lock(s.run_mutex);
    if (workers < 1) workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    s.grow(workers);
    const KcCpuDim block_dim{unsigned(l.block.x), unsigned(l.block.y), unsigned(l.block.z)};
    const KcCpuLaunchArgs args{KcCpuDim{unsigned(l.grid.x), unsigned(l.grid.y), unsigned(l.grid.z)},
                               block_dim,
                               l.out,
                               l.width,
                               l.height,
                               l.a,
                               l.b,
                               l.t,
                               l.check};
    s.entry.begin(&args);
    State::Job job;
    job.blocks = static_cast<unsigned long long>(l.grid.count());
    if (s.mode == KernelMode::Checked && l.check.max_blocks >= 0)
        job.blocks = std::min(job.blocks, static_cast<unsigned long long>(l.check.max_blocks)); // step mode
    job.chunk = std::max(1ULL, job.blocks / (16ULL * static_cast<unsigned>(workers)));
    job.block_dim = block_dim, job.grid = l.grid, job.stop = stop, job.participants = workers;
    {
        std::lock_guard lock(s.pool_mutex);
        s.job = &job;
        s.active = static_cast<int>(s.workers.size()) - 1;
        ++s.generation;
    }
    s.wake.notify_all();
    s.work(0);
    {
        std::unique_lock lock(s.pool_mutex);
        s.finished.wait(lock, [&] { return s.active == 0; });
        s.job = nullptr;
    }
    if (stop && stop->load()) return "stopped before every block had run";
    if (job.first_error && job.errors > 1)
        *job.first_error += fmt::format(" (and {} more blocks like it)", job.errors - 1);
    return std::move(job.first_error);
}

KernelMode CpuKernelModule::mode() const { return state_->mode; }
bool CpuKernelModule::has_barriers() const { return state_->barriers; }

} // namespace kc
