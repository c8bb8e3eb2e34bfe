#include "app/script/ui_script.h"

#include <fmt/format.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "app/core/kernel_editor.h"
#include "app/ui/widgets.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"

namespace kc {

UiScript::UiScript(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw ScriptError(fmt::format("cannot read --script '{}'", path));
    std::ostringstream text;
    text << in.rdbuf();
    *this = from_text(path, text.str());
}

UiScript UiScript::from_text(const std::string& name, const std::string& text) {
    UiScript script;
    script.path_ = name;
    std::istringstream in(text);
    std::string line_text;
    for (int line = 1; std::getline(in, line_text); ++line) {
        std::istringstream words(line_text);
        Command c{line, {}, {}};
        if (!(words >> c.verb) || c.verb.starts_with('#')) continue;
        std::getline(words >> std::ws, c.arg);
        script.commands_.push_back(c);
    }
    return script;
}

namespace {

// How `print` and `widgets` show a control: "widget LABEL: VALUE", " (disabled)" where it is.
void print_widget_line(const WidgetRecord& w) {
    fmt::print("widget {}: {}{}\n", w.label, w.value, w.disabled ? " (disabled)" : "");
}

bool is_input_verb(const std::string& verb) {
    static const std::set<std::string> verbs = {"click",      "rclick", "mclick", "quick-click", "hover",   "drag",
                                                "wheel",      "key",    "type",   "print",       "widgets", "expect",
                                                "expect-not", "text",   "where",  "await"};
    return verbs.contains(verb);
}

std::optional<ImVec2> parse_point(const std::string& text) {
    float x = 0, y = 0;
    char comma = 0, rest = 0;
    std::istringstream in(text);
    if (in >> x >> comma >> y && comma == ',' && !(in >> rest)) return ImVec2(x, y);
    return std::nullopt;
}

} // namespace

void UiScript::fail(const Command& c, const std::string& what) const {
    throw ScriptError(fmt::format("{}:{}: {} {}: {}", path_, c.line, c.verb, c.arg, what));
}

// The command's argument as a finite number in [lo, hi] (a whole one if `whole`), else a script error.
double UiScript::number(const Command& c, double lo, double hi, bool whole) const {
    double v = 0;
    char rest = 0;
    std::istringstream in(c.arg);
    const bool parsed = (in >> v) && !(in >> rest) && std::isfinite(v) && (!whole || v == std::floor(v));
    if (!parsed || v < lo || v > hi)
        fail(c, fmt::format("needs {} from {} to {}", whole ? "a whole number" : "a number", lo, hi));
    return v;
}

ScriptError UiScript::bad(const Command& c, const std::string& what) const {
    return ScriptError(fmt::format("{}:{}: {} '{}'", path_, c.line, what, c.arg));
}

void UiScript::step(UiState& s, Requests& requests, const Messages& messages, const Hooks& hooks) {
    requests_ = &requests, messages_ = &messages;
    if (idle_until_ && std::chrono::steady_clock::now() < *idle_until_) return;
    idle_until_.reset();
    if (wait_frames_ > 0) {
        --wait_frames_;
        return;
    }
    while (!commands_.empty() && wait_frames_ == 0 && !idle_until_ && !input_.busy() &&
           !requests.pending<request::Quit>()) {
        const Command c = commands_.front();
        if (is_input_verb(c.verb)) {
            if (!run_input_verb(c)) return; // its control is not drawn or not in view yet
            retries_ = 0;
            scrolled_from_.reset();
            await_until_.reset();
            commands_.pop_front();
        } else {
            commands_.pop_front();
            run_state_verb(c, s, hooks);
        }
        std::fflush(stdout);
    }
}

// Where TARGET is on screen now, or nullopt to try again next frame (after scrolling it into view).
std::optional<ImVec2> UiScript::target_point(const Command& c, const std::string& target) {
    if (const auto p = parse_point(target)) return p;
    const WidgetLog* log = widget_log();
    if (!log) fail(c, "no widget log (the window is not running a script)");
    constexpr int kPatience = 60; // frames: a control appears, or wheels into view, well before
    if (++retries_ > kPatience) fail(c, "the control did not come into view");
    const FoundWidget found = find_widget(log->last_frame(), target);
    if (!found.widget) {
        if (log->last_frame().empty() || retries_ < 3) return std::nullopt; // nothing drawn yet, or a list opening
        fail(c, found.error);
    }
    const WidgetRecord& w = *found.widget;
    // A control at the very edge of its panel is half hidden, and its window's resize border
    // takes the click there: a person scrolls it in first, and so does the script.
    const float margin = std::min(8.0f, (w.clip_max.y - w.clip_min.y) / 4);
    const bool clear_of_edges = w.target.y >= w.clip_min.y + margin && w.target.y <= w.clip_max.y - margin;
    if (w.visible && (clear_of_edges || w.in_popup)) return w.target;
    if (w.window.empty() || w.clip_max.y <= w.clip_min.y) fail(c, "it is not on screen");
    // The last wheel turn did not move it: the panel is at its end, so click where it is.
    const bool stuck = scrolled_from_ && std::abs(*scrolled_from_ - w.target.y) < 0.5f;
    if (w.visible && (stuck || retries_ > kPatience / 2)) return scrolled_from_.reset(), w.target;
    scrolled_from_ = w.target.y;
    // Scrolled out of its panel: turn the wheel over the panel, as a person would.
    const ImVec2 over((w.clip_min.x + w.clip_max.x) * 0.5f, (w.clip_min.y + w.clip_max.y) * 0.5f);
    input_.move_to(over);
    input_.wheel(w.target.y > (w.clip_min.y + w.clip_max.y) / 2 ? -1.0f : 1.0f);
    return std::nullopt;
}

// expect TEXT: the window shows TEXT (waiting up to a second of frames for it); expect-not TEXT:
// it does not, now; text: prints everything shown.
bool UiScript::check_text(const Command& c) {
    const WidgetLog* log = widget_log();
    if (!log) fail(c, "no widget log (the window is not running a script)");
    const std::string& shown = log->last_text();
    if (c.verb == "text") {
        fmt::print("text:\n{}\n", shown);
        return true;
    }
    const bool found = shown.find(c.arg) != std::string::npos;
    if (c.verb == "expect-not" && found) fail(c, "the window shows it:\n" + shown);
    if (c.verb == "expect" && !found) {
        constexpr int kPatience = 60;
        if (++retries_ <= kPatience) return false;
        fail(c, "the window does not show it; it shows:\n" + shown);
    }
    return true;
}

// await S TEXT: the window shows TEXT within S seconds (work that takes seconds: an exercise's
// check); the frames go on meanwhile, the script waits.
bool UiScript::await_text(const Command& c) {
    std::istringstream in(c.arg);
    double seconds = 0;
    std::string text;
    if (!(in >> seconds) || !(seconds > 0 && seconds <= 3600) || !std::getline(in >> std::ws, text) || text.empty())
        throw bad(c, "await needs SECONDS (up to 3600) and TEXT");
    const WidgetLog* log = widget_log();
    if (!log) fail(c, "no widget log (the window is not running a script)");
    const std::string& shown = log->last_text();
    if (shown.find(text) != std::string::npos) return true;
    const auto now = std::chrono::steady_clock::now();
    if (!await_until_)
        await_until_ = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(seconds));
    if (now > *await_until_)
        fail(c, fmt::format("the window does not show it after {} s; it shows:\n{}", seconds, shown));
    return false;
}

// print LABEL: what the control shows; false until a first frame is drawn.
bool UiScript::print_widget(const Command& c) {
    const WidgetLog* log = widget_log();
    if (!log || log->last_frame().empty()) {
        if (++retries_ > 3) fail(c, "nothing drawn");
        return false;
    }
    const FoundWidget found = find_widget(log->last_frame(), c.arg);
    if (!found.widget) fail(c, found.error);
    const WidgetRecord& w = *found.widget;
    if (c.verb == "where") // the whole item, in window pixels: what a screenshot shows it in
        fmt::print("where {}: {:.0f},{:.0f} {:.0f},{:.0f}\n", w.label, w.min.x, w.min.y, w.max.x, w.max.y);
    else
        print_widget_line(w);
    return true;
}

// wheel N [TARGET]: the wheel turned N notches, over TARGET if given.
bool UiScript::wheel_verb(const Command& c) {
    std::istringstream in(c.arg);
    float steps = 0;
    if (!(in >> steps)) fail(c, "wheel N [TARGET]");
    std::string target;
    std::getline(in >> std::ws, target);
    if (!target.empty()) {
        const auto at = target_point(c, target);
        if (!at) return false;
        input_.move_to(*at);
    }
    input_.wheel(steps);
    return true;
}

// drag TARGET DX DY [left|right|middle]: the numbers are read from the end, labels have spaces.
bool UiScript::drag_verb(const Command& c) {
    using Button = ScriptedInput::Button;
    std::vector<std::string> words;
    std::istringstream in(c.arg);
    for (std::string w; in >> w;) words.push_back(w);
    Button button = Button::Left;
    if (!words.empty() && (words.back() == "left" || words.back() == "right" || words.back() == "middle")) {
        button = words.back() == "right" ? Button::Right : words.back() == "middle" ? Button::Middle : Button::Left;
        words.pop_back();
    }
    if (words.size() < 3) fail(c, "drag TARGET DX DY [left|right|middle]");
    float dx = 0, dy = 0;
    try {
        dx = std::stof(words[words.size() - 2]), dy = std::stof(words.back());
    } catch (const std::exception&) {
        fail(c, "DX and DY must be numbers");
    }
    std::string target = words[0];
    for (std::size_t i = 1; i + 2 < words.size(); ++i) target += " " + words[i];
    const auto at = target_point(c, target);
    if (!at) return false;
    input_.drag(*at, ImVec2(dx, dy), button);
    return true;
}

// hover, click, rclick, mclick TARGET.
bool UiScript::pointer_verb(const Command& c) {
    using Button = ScriptedInput::Button;
    const auto at = target_point(c, c.arg);
    if (!at) return false;
    if (c.verb == "hover") {
        input_.move_to(*at), input_.idle_frames(1);
        return true;
    }
    // Aim, then click where the control is once the pointer is there: a panel whose content
    // above it changes height (timings appearing) moves it between frames.
    constexpr float kSteady = 1.0f;
    constexpr int kMaxAims = 10;
    const bool steady =
        aimed_at_ && std::abs(aimed_at_->x - at->x) <= kSteady && std::abs(aimed_at_->y - at->y) <= kSteady;
    if (!steady && ++aims_ <= kMaxAims) {
        aimed_at_ = *at;
        input_.move_to(*at);
        return false;
    }
    aimed_at_.reset(), aims_ = 0;
    if (c.verb == "quick-click") { // the hand then moves on to the window's far corner, in the same frame
        // (Without a window, the fuzzer's, there is no ImGui context: the hand stays.)
        const ImVec2 corner = ImGui::GetCurrentContext() ? ImGui::GetIO().DisplaySize : ImVec2(at->x + 2, at->y + 2);
        input_.quick_click(*at, ImVec2(corner.x - 2, corner.y - 2));
        return true;
    }
    input_.click(*at, c.verb == "rclick" ? Button::Right : c.verb == "mclick" ? Button::Middle : Button::Left);
    return true;
}

bool UiScript::run_input_verb(const Command& c) {
    bool done = true;
    if (c.verb == "key") {
        const auto chord = parse_key_chord(c.arg);
        if (!chord) fail(c, "unknown key (try enter, escape, f12, ctrl+q, a, plus)");
        input_.key(*chord);
    } else if (c.verb == "type") {
        input_.type(c.arg);
    } else if (c.verb == "expect" || c.verb == "expect-not" || c.verb == "text") {
        done = check_text(c);
    } else if (c.verb == "await") {
        done = await_text(c);
    } else if (c.verb == "widgets") {
        if (const WidgetLog* log = widget_log())
            for (const WidgetRecord& w : log->last_frame())
                if (w.visible) print_widget_line(w);
    } else if (c.verb == "print" || c.verb == "where") {
        done = print_widget(c);
    } else if (c.verb == "wheel") {
        done = wheel_verb(c);
    } else if (c.verb == "drag") {
        done = drag_verb(c);
    } else {
        done = pointer_verb(c);
    }
    if (done) fmt::print("script: {} {}\n", c.verb, c.arg);
    return done;
}

// The parameter table's verbs (gpu/param_limits.h): every parameter's name sets it.
bool UiScript::run_param_verb(const Command& c, UiState& s) const {
    if (!find_param(c.verb)) return false;
    if (auto e = set_param_text(s.job.params, c.verb, c.arg)) fail(c, *e);
    return true;
}

bool UiScript::run_launch_verb(const Command& c, UiState& s) const {
    if (c.verb == "op") {
        const OpInfo* op = find_op(c.arg);
        if (!op) throw bad(c, "unknown op");
        s.job.op = op->index;
    } else if (c.verb == "block") {
        const auto d = parse_dim3(c.arg);
        if (!d) throw bad(c, "bad block");
        s.job.launch.block = *d;
    } else if (c.verb == "grid") {
        const auto d = parse_dim3(c.arg);
        if (c.arg != "auto" && !d) throw bad(c, "bad grid");
        s.job.launch.auto_grid = c.arg == "auto";
        if (d) s.job.launch.grid = *d;
    } else if (c.verb == "mapping") {
        const auto m = parse_mapping(c.arg);
        if (!m) throw bad(c, "unknown mapping");
        s.job.launch.mapping = *m;
    } else if (c.verb == "view") {
        const auto v = parse_view(c.arg);
        if (!v) throw bad(c, "unknown view");
        s.job.view = *v;
    } else if (c.verb == "size") {
        const auto d = parse_dim3(c.arg);
        if (!d) throw bad(c, "bad size");
        s.edit_width = d->x, s.edit_height = d->y;
        requests_->push(request::ResizeCanvas{d->x, d->y});
    } else {
        return false;
    }
    return true;
}

// A window a screen can show: GLFW takes any int, and X fails (0), aborts (negative) or crashes (huge).
constexpr int kMinWindowSide = 100, kMaxWindowSide = 8192;

bool UiScript::run_window_verb(const Command& c) const {
    if (c.verb == "window") { // window WxH: resize the window, as a person drags its corner
        const auto d = parse_dim3(c.arg);
        const auto side_ok = [](int v) { return v >= kMinWindowSide && v <= kMaxWindowSide; };
        if (!d || d->z != 1 || c.arg.find(',') != std::string::npos || !side_ok(d->x) || !side_ok(d->y))
            fail(c,
                 fmt::format("needs WxH, each a whole number from {} to {} (points)", kMinWindowSide, kMaxWindowSide));
        requests_->push(request::ResizeWindow{d->x, d->y});
    } else if (c.verb == "image" || c.verb == "image2") {
        requests_->push(request::LoadImage{c.verb == "image2" ? 1 : 0, c.arg});
    } else if (c.verb == "backend") {
        const auto b = parse_backend(c.arg);
        if (!b) throw bad(c, "unknown backend");
        requests_->push(request::SetBackend{*b});
    } else if (c.verb == "present") {
        const auto pr = parse_present(c.arg);
        if (!pr) throw bad(c, "unknown present path");
        requests_->push(request::SetPresent{*pr});
    } else if (c.verb == "vsync") {
        requests_->push(request::SetVsync{c.arg == "on"});
    } else if (c.verb == "tune") {
        requests_->push(*command_request("tune"));
    } else if (c.verb == "quit") {
        requests_->push(request::Quit{/*ask_first=*/false});
    } else {
        return false;
    }
    return true;
}

bool UiScript::run_teach_verb(const Command& c, UiState& s) {
    if (c.verb == "inspect") { // inspect X,Y pins the inspector there; inspect off frees it
        const auto d = parse_dim3(c.arg);
        if (c.arg == "off")
            s.teach.pinned_pixel.reset();
        else if (!d)
            throw bad(c, "bad pixel");
        else
            s.teach.pinned_pixel = std::pair{d->x, d->y};
    } else if (c.verb == "outlines") {
        s.teach.block_outlines = c.arg == "on";
    } else if (c.verb == "step") { // step N: step mode, paused after N blocks; step off
        s.teach.stepping = c.arg != "off";
        if (s.teach.stepping) s.teach.step_request = number(c, 0, 1e12, true), s.clock.paused = true;
    } else if (c.verb == "panel") { // panel indexing|device opens that section, -indexing closes it
        s.teach.section_requests.push_back(c.arg);
    } else if (c.verb == "wait") {
        wait_frames_ = int(number(c, 1, 100000, true));
    } else if (c.verb == "idle") { // idle S: S seconds as if no script ran, the window waiting for input
        idle_until_ =
            std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                   std::chrono::duration<double>(number(c, 0, 600)));
        fmt::print("script: idle {}\n", c.arg); // a test measures the window meanwhile
        std::fflush(stdout);
    } else {
        return false;
    }
    return true;
}

// The animation clock of the Time section, and the Record section's recording.
bool UiScript::run_clock_verb(const Command& c, UiState& s) const {
    if (c.verb == "pause" || c.verb == "play") {
        s.clock.paused = c.verb == "pause";
    } else if (c.verb == "frame") { // frame N: N frames forward (negative: back), paused
        s.clock.step_frames(int(number(c, -1e6, 1e6, true)));
    } else if (c.verb == "time") { // time T: scrub to t = T seconds
        s.clock.set(number(c, 0, 1e9));
    } else if (c.verb == "speed") {
        s.clock.speed = number(c, TimeClock::kMinSpeed, TimeClock::kMaxSpeed);
    } else if (c.verb == "loop") { // loop FROM TO (seconds) | loop off
        std::istringstream in(c.arg);
        double from = 0, to = 0;
        if (c.arg == "off")
            s.clock.loop = false;
        else if (in >> from >> to && from >= 0 && to > from && std::isfinite(to))
            s.clock.loop = true, s.clock.loop_from = from, s.clock.loop_to = to, s.clock.set(s.clock.seconds);
        else
            throw bad(c, "loop needs FROM TO, 0 <= FROM < TO, or off");
    } else if (c.verb == "record") { // record FILE: the Record section's recording to FILE; record cancel
        if (c.arg == "cancel") {
            requests_->push(*command_request("record-cancel"));
        } else {
            std::snprintf(s.record.path.data(), s.record.path.size(), "%s", c.arg.c_str());
            requests_->push(*command_request("record"));
        }
    } else {
        return false;
    }
    return true;
}

bool UiScript::run_kernel_verb(const Command& c, UiState& s) const {
    if (c.verb == "kernel") { // kernel FILE.cu: load into the editor and compile, as the panel's Load
        requests_->push(request::LoadKernel{c.arg});
    } else if (c.verb == "starter") { // starter NAME: a starter of assets/kernels into the editor, compiled
        const StarterKernel* starter = find_starter(c.arg);
        if (!starter) throw bad(c, "unknown starter");
        load_starter(s.kernel, *starter);
    } else if (c.verb == "source") { // source TEXT: append a line to the editor ("source -" empties it)
        if (c.arg == "-")
            s.kernel.source.clear();
        else
            s.kernel.source += c.arg + "\n";
    } else if (c.verb == "compile") {
        requests_->push(*command_request("compile"));
    } else if (c.verb == "editor") { // editor window|panel: beside the canvas (where there is room), or in the panel
        if (c.arg != "window" && c.arg != "panel") throw bad(c, "editor must be window or panel");
        s.kernel.beside_canvas = c.arg == "window";
    } else {
        return false;
    }
    return true;
}

// status: what went wrong or "ok", the images' errors, the message, the launch that runs, the
// kernel's compile, the tuner.
void UiScript::print_status(const UiState& s, const Messages& m, const Hooks& hooks) {
    const std::string& refusal = m.text(Topic::Launch);
    const std::string& error = m.text(Topic::Paint);
    fmt::print("status: {}\n", !refusal.empty() ? "refused: " + refusal : error.empty() ? "ok" : "error: " + error);
    for (int slot = 0; slot < 2; ++slot)
        if (m.has(image_topic(slot))) fmt::print("image error: {} (image {})\n", m.text(image_topic(slot)), "AB"[slot]);
    if (m.has(Topic::Status)) fmt::print("message: {}\n", m.text(Topic::Status));
    // Resolved afresh, the frame loop's way: a verb earlier in this frame may have changed the job.
    const ResolvedLaunch r = resolve_launch(s.job, universal_limits());
    fmt::print("launch: block {} grid {} mapping {} ({})\n", to_string(r.launch.block), to_string(r.grid),
               mapping_name(r.launch.mapping), r.own ? "the op's own" : "the panel's");
    const KernelEditorState& k = s.kernel;
    if (k.last_ok) fmt::print("compile: {}\n{}\n", *k.last_ok ? "ok " + k.target : "failed", k.log);
    if (m.has(Topic::KernelFile)) fmt::print("kernel file: {}\n", m.text(Topic::KernelFile));
    if (hooks.tuner_status) fmt::print("{}", hooks.tuner_status());
}

void UiScript::run_state_verb(const Command& c, UiState& s, const Hooks& hooks) {
    auto report = [&](const std::optional<std::string>& error) {
        if (error) throw ScriptError(fmt::format("{}:{}: {}", path_, c.line, *error));
        fmt::print("script: {} {}\n", c.verb, c.arg);
    };
    if (run_param_verb(c, s) || run_launch_verb(c, s) || run_window_verb(c) || run_teach_verb(c, s) ||
        run_kernel_verb(c, s) || run_clock_verb(c, s))
        return;
    if (c.verb == "save")
        report(hooks.save_canvas(c.arg));
    else if (c.verb == "screenshot")
        report(hooks.save_window(c.arg));
    else if (c.verb == "status")
        print_status(s, *messages_, hooks);
    else if (c.verb == "clock") // for tests that time the window's answers: differences are what count
        fmt::print(
            "clock: {:.1f} ms\n",
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count());
    else
        fail(c, "unknown command");
}

} // namespace kc
