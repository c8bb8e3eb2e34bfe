// Every op of the registry against its independent CPU reference (op_references.h), with random
// inputs and random values of the parameters it reads (from the parameter table). An op added
// without a reference fails here: write one, and add it to references() in op_references.h.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gpu/cpu_emulator.h"
#include "gpu/param_limits.h"
#include "tests/support/op_references.h"
#include "tests/support/poison.h"

namespace kc {
namespace {

// A random value of each parameter the op reads, kept small where a frame's cost grows with it.
OpParams random_params(const OpInfo& op, std::mt19937& rng) {
    OpParams p;
    for (const ParamSpec& s : kParams) {
        if (!uses_param(op, s.name)) continue;
        double lo = s.slider_min(), hi = s.slider_max();
        if (s.name == "iter") hi = 300;
        if (s.name == "matmul-n") hi = 64;
        if (s.name == "cell") hi = 40;
        if (s.name == "variant") hi = op.variants - 1; // the parameter's range is every op's kernels
        if (s.name == "zoom") lo = 0.5, hi = 4;
        if (s.name.starts_with("center-")) lo = -0.6, hi = 0.3;
        double v = std::uniform_real_distribution<double>(lo, hi)(rng);
        if (s.whole()) v = std::round(v / s.multiple_of) * s.multiple_of;
        EXPECT_FALSE(set_param(p, s.name, v)) << s.name << " " << v;
    }
    return p;
}

TEST(OpReferences, EveryOpInTheRegistryHasOneAndMatchesIt) {
    std::mt19937 rng(20261201);
    for (const OpInfo& op : op_registry()) {
        SCOPED_TRACE(std::string(op.name));
        // The user's own kernel is the user's code, run by CUDA only (test_gpu_user_kernel.cpp).
        if (op.user_code) continue;
        const ref::Reference* reference = ref::reference_for(op.name);
        ASSERT_NE(reference, nullptr) << "op " << op.name
                                      << " has no independent CPU reference: write one in tests/reference_ops.h "
                                         "and list it in references() in tests/op_references.h";
        for (int round = 0; round < 3; ++round) {
            OpParams p = random_params(op, rng);
            p.width = 23 + int(rng() % 40), p.height = 17 + int(rng() % 30);
            const ref::Img a = ref::blobby_image(p.width, p.height, rng()),
                           b = ref::random_image(p.width, p.height, rng());
            p.src_a = a.px.data(), p.src_b = b.px.data();
            PaintJob job;
            job.op = op.index, job.params = p;
            job.launch.block = {1 + int(rng() % 32), 1 + int(rng() % 8), 1};
            std::vector<Pixel> out(a.px.size(), test::kPoison);
            OpOutputs outputs;
            const auto error = CpuGridEmulator(2).paint(job, out.data(), &outputs);
            ASSERT_FALSE(error) << *error;
            const ref::RefInputs in{p, a, b};
            const std::vector<Pixel> want = reference->pixels(in);
            std::size_t off = 0;
            for (std::size_t k = 0; k < out.size(); ++k)
                off += ref::max_diff({out[k]}, {want[k]}) > reference->tolerance;
            EXPECT_LE(off, reference->allowed_off(out.size()))
                << off << " of " << out.size() << " pixels differ, round " << round;
            if (reference->outputs_ok) {
                EXPECT_TRUE(reference->outputs_ok(in, outputs)) << "round " << round;
            }
        }
    }
}

// Each reference's op is in the registry: a renamed op cannot leave its reference behind, untested.
TEST(OpReferences, EveryReferenceNamesAnOp) {
    for (const auto& [name, reference] : ref::references()) EXPECT_NE(find_op(name), nullptr) << name;
}

} // namespace
} // namespace kc
