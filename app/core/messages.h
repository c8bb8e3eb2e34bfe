#pragma once
// What kcanvas tells the user, in one queue with severities: the status bar, the panel's lines and
// scripts' `status` read it, so a message is posted once and shown everywhere it belongs. Each
// topic holds its latest message: posting replaces it, clearing removes it.
#include <string>
#include <vector>

namespace kc {

enum class Severity { Info, Warning, Error, Fatal };

enum class Topic {
    Status,     // one-line feedback: "saved ...", "canvas resized to ...", the tuner's end
    Paint,      // a CUDA or GL error of the last frame
    Launch,     // why the last paint was refused (the old picture stays)
    ImageA,     // why image A's last load failed (the old image stays)
    ImageB,     //   ... image B's
    KernelFile, // the kernel editor's last load or save
    Autosave,   // the kernel editor's autosave
    Preset,     // the last Save preset or Load preset
    Settings,   // settings.conf or imgui.ini could not be read, or parts were left out (at start)
    Fault,      // a kernel faulted and CUDA cannot go on: shown until the user quits (exit 1)
};

struct Message {
    Topic topic;
    Severity severity;
    std::string text;
};

class Messages {
public:
    void post(Topic topic, Severity severity, std::string text);
    void info(Topic topic, std::string text) { post(topic, Severity::Info, std::move(text)); }
    void warning(Topic topic, std::string text) { post(topic, Severity::Warning, std::move(text)); }
    void error(Topic topic, std::string text) { post(topic, Severity::Error, std::move(text)); }
    void clear(Topic topic);

    const Message* find(Topic topic) const;     // null: none
    const std::string& text(Topic topic) const; // empty: none
    bool has(Topic topic) const { return find(topic) != nullptr; }
    bool failed(Topic topic) const;                  // an error or worse
    std::vector<Message> most_serious_first() const; // posting order within a severity

private:
    std::vector<Message> list_; // at most one a topic, in posting order
};

// A topic's message by an image slot (0: A, 1: B).
inline Topic image_topic(int slot) { return slot == 0 ? Topic::ImageA : Topic::ImageB; }

} // namespace kc
