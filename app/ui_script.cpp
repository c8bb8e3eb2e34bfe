#include "ui_script.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "registry.h"
#include "user_kernel.h"

namespace kc {

UiScript::UiScript(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read --script '{}'", path));
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        std::istringstream words(text);
        Command c{line, {}, {}};
        if (!(words >> c.verb) || c.verb.starts_with('#')) continue;
        std::getline(words >> std::ws, c.arg);
        commands_.push_back(c);
    }
}

void UiScript::step(UiState& s, const Hooks& hooks) {
    if (wait_frames_ > 0) {
        --wait_frames_;
        return;
    }
    while (!commands_.empty() && wait_frames_ == 0) {
        const Command c = commands_.front();
        commands_.pop_front();
        auto bad = [&](const std::string& what) {
            return std::runtime_error(fmt::format("{}:{}: {} '{}'", path_, c.line, what, c.arg));
        };
        auto report = [&](const std::optional<std::string>& error) {
            if (error) throw std::runtime_error(fmt::format("{}:{}: {}", path_, c.line, *error));
            fmt::print("script: {} {}\n", c.verb, c.arg);
        };
        if (c.verb == "op") {
            const OpInfo* op = find_op(c.arg);
            if (!op) throw bad("unknown op");
            s.job.op = op->index;
        } else if (c.verb == "block") {
            const auto d = parse_dim3(c.arg);
            if (!d) throw bad("bad block");
            s.job.launch.block = *d;
        } else if (c.verb == "grid") {
            if (c.arg == "auto") {
                s.job.launch.auto_grid = true;
            } else {
                const auto d = parse_dim3(c.arg);
                if (!d) throw bad("bad grid");
                s.job.launch.grid = *d;
                s.job.launch.auto_grid = false;
            }
        } else if (c.verb == "mapping") {
            const auto m = parse_mapping(c.arg);
            if (!m) throw bad("unknown mapping");
            s.job.launch.mapping = *m;
        } else if (c.verb == "view") {
            const auto v = parse_view(c.arg);
            if (!v) throw bad("unknown view");
            s.job.view = *v;
        } else if (c.verb == "weight") {
            s.job.params.weight = std::stof(c.arg);
        } else if (c.verb == "cell") {
            s.job.params.cell = std::stoi(c.arg);
        } else if (c.verb == "size") {
            const auto d = parse_dim3(c.arg);
            if (!d) throw bad("bad size");
            s.edit_width = d->x, s.edit_height = d->y, s.apply_size = true;
        } else if (c.verb == "image" || c.verb == "image2") {
            s.load_request[c.verb == "image2" ? 1 : 0] = c.arg;
        } else if (c.verb == "level") {
            s.job.params.level = std::stoi(c.arg);
        } else if (c.verb == "radius") {
            s.job.params.radius = std::stoi(c.arg);
        } else if (c.verb == "variant") {
            if (c.arg != "naive" && c.arg != "tiled") throw bad("variant must be naive or tiled");
            s.job.params.variant = c.arg == "tiled" ? 1 : 0;
        } else if (c.verb == "iter") {
            s.job.params.max_iter = std::stoi(c.arg);
        } else if (c.verb == "backend") {
            const auto b = parse_backend(c.arg);
            if (!b) throw bad("unknown backend");
            s.requested_backend = *b;
        } else if (c.verb == "present") {
            const auto pr = parse_present(c.arg);
            if (!pr) throw bad("unknown present path");
            s.requested_present = *pr;
        } else if (c.verb == "vsync") {
            s.vsync = c.arg == "on";
        } else if (c.verb == "inspect") { // inspect X,Y pins the inspector there; inspect off frees it
            const auto d = parse_dim3(c.arg);
            if (c.arg == "off") s.teach.pinned_pixel.reset();
            else if (!d) throw bad("bad pixel");
            else s.teach.pinned_pixel = std::pair{d->x, d->y};
        } else if (c.verb == "outlines") {
            s.teach.block_outlines = c.arg == "on";
        } else if (c.verb == "step") { // step N: step mode, paused after N blocks; step off
            s.teach.stepping = c.arg != "off";
            if (s.teach.stepping) s.teach.step_blocks = std::stod(c.arg), s.teach.step_paused = true;
        } else if (c.verb == "panel") { // panel indexing|device opens that section, -indexing closes it
            s.teach.section_requests.push_back(c.arg);
        } else if (c.verb == "wait") {
            wait_frames_ = std::max(1, std::stoi(c.arg));
        } else if (c.verb == "save") {
            report(hooks.save_canvas(c.arg));
        } else if (c.verb == "screenshot") {
            report(hooks.save_window(c.arg));
        } else if (c.verb == "status") {
            fmt::print("status: {}\n", s.refusal ? "refused: " + *s.refusal : s.error.empty() ? "ok" : "error: " + s.error);
            if (!s.image_error.empty()) fmt::print("image error: {}\n", s.image_error);
            if (!s.message.empty()) fmt::print("message: {}\n", s.message);
            const KernelEditorState& k = s.kernel;
            if (k.last_ok) fmt::print("compile: {}\n{}\n", *k.last_ok ? "ok " + k.target : "failed", k.log);
            if (!k.file_message.empty()) fmt::print("kernel file: {}\n", k.file_message);
            if (hooks.tuner_status) fmt::print("{}", hooks.tuner_status());
        } else if (c.verb == "kernel") { // kernel FILE.cu: load into the editor and compile, as the panel's Load
            s.kernel.load_request = c.arg;
        } else if (c.verb == "starter") { // starter NAME: a starter of assets/kernels into the editor, compiled
            const StarterKernel* starter = find_starter(c.arg);
            if (!starter) throw bad("unknown starter");
            s.kernel.source = std::string(starter->source);
            s.kernel.file_name = c.arg + ".cu";
            s.kernel.compile_request = true;
        } else if (c.verb == "source") { // source TEXT: append a line to the editor ("source -" empties it)
            if (c.arg == "-") s.kernel.source.clear();
            else s.kernel.source += c.arg + "\n";
        } else if (c.verb == "compile") {
            s.kernel.compile_request = true;
        } else if (c.verb == "editor") { // editor window|panel: where the kernel editor is
            if (c.arg != "window" && c.arg != "panel") throw bad("editor must be window or panel");
            s.kernel.own_window = c.arg == "window";
        } else if (c.verb == "tune") {
            s.tune.start = true;
        } else if (c.verb == "quit") {
            s.quit = true;
            return;
        } else {
            throw std::runtime_error(fmt::format("{}:{}: unknown command '{}'", path_, c.line, c.verb));
        }
        std::fflush(stdout);
    }
}

} // namespace kc
