#pragma once
// A kernel faulted (an illegal address, a trap, ...) and took the CUDA context with it: nothing
// more can run on the GPU in this process. The painter's paint() and collect_timings() throw it.
#include <stdexcept>

namespace kc {

class CudaContextLost : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace kc
