#include "sandbox/host_runner.h"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "cpukernel/cpu_kernel.h"
#include "gpu/pixel.h"
#include "gpu/prelude/kcanvas_check_abi.h"
#include "gpu/prelude/kcanvas_cpu_abi.h"

namespace kc::sandbox {

namespace {

// The sandbox's own tests: void kc_sandbox_plain_paint(Pixel* out, int width, int height, float t),
// run in the host's thread.
using PlainPaint = void (*)(Pixel*, int, int, float);

class PlainRunner final : public HostRunner {
public:
    explicit PlainRunner(PlainPaint paint) : paint_(paint) {}
    std::optional<std::string> run(const FrameCommand& c, std::byte* shared) override {
        paint_(reinterpret_cast<Pixel*>(shared + c.out), c.width, c.height, c.t);
        return std::nullopt;
    }
    bool current_thread(unsigned*, unsigned*) const override { return false; }

private:
    PlainPaint paint_;
};

// A kernel compiled by cpukernel/: its workers start at load, before the filter. `state` is the
// library's kc_cpu_state (gpu/prelude/kcanvas_cpu_abi.h): the CUDA thread an OS thread runs.
using ThreadState = KcCpuThreadState* (*)();

class ModuleRunner final : public HostRunner {
public:
    ModuleRunner(CpuKernelModule module, ThreadState state) : module_(std::move(module)), state_(state) {
        module_.start_workers(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    }
    std::optional<std::string> run(const FrameCommand& c, std::byte* shared) override {
        auto pixels = [&](std::uint64_t at) { return reinterpret_cast<Pixel*>(shared + at); };
        CpuKernelLaunch l;
        l.grid = Dim3{c.grid[0], c.grid[1], c.grid[2]};
        l.block = Dim3{c.block[0], c.block[1], c.block[2]};
        l.width = c.width, l.height = c.height, l.t = c.t;
        l.out = pixels(c.out), l.a = pixels(c.a), l.b = pixels(c.b);
        l.check.violation = &reinterpret_cast<SharedHeader*>(shared)->violation;
        l.check.max_blocks = c.checked ? c.max_blocks : -1;
        l.check.identity = c.identity;
        if (c.writers)
            l.check.record = KcRecord{reinterpret_cast<unsigned*>(shared + c.writers),
                                      reinterpret_cast<unsigned*>(shared + c.block_sm), c.blocks};
        return module_.run(l, static_cast<int>(c.workers));
    }
    // The worker's state is a thread_local of the library that the worker has touched already.
    // Under AddressSanitizer reading it in the fault handler faulted again (the host then died
    // without the thread): the report names the call or the signal alone there.
    bool current_thread(unsigned block[3], unsigned thread[3]) const override {
#if defined(__SANITIZE_ADDRESS__)
        (void)block, (void)thread;
        return false;
#endif
        if (!state_) return false;
        const KcCpuThreadState* s = state_();
        block[0] = s->block_idx.x, block[1] = s->block_idx.y, block[2] = s->block_idx.z;
        thread[0] = s->thread_idx.x, thread[1] = s->thread_idx.y, thread[2] = s->thread_idx.z;
        return true;
    }

private:
    CpuKernelModule module_;
    ThreadState state_;
};

} // namespace

std::unique_ptr<HostRunner> load_host_runner(const char* so_path, std::string& why) {
    void* library = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* error = dlerror();
        why = std::string("cannot load the compiled kernel: ") + (error ? error : so_path);
        return nullptr;
    }
    if (void* plain = dlsym(library, "kc_sandbox_plain_paint"))
        return std::make_unique<PlainRunner>(reinterpret_cast<PlainPaint>(plain));
    // CpuKernelModule opens it again, as its own; this handle stays open with it.
    const auto state = reinterpret_cast<ThreadState>(dlsym(library, "kc_cpu_state"));
    try {
        return std::make_unique<ModuleRunner>(CpuKernelModule::load(so_path), state);
    } catch (const std::exception& e) {
        why = std::string("cannot load the compiled kernel: ") + e.what();
        return nullptr;
    }
}

} // namespace kc::sandbox
