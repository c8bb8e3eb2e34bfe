#include "app/core/messages.h"

#include <algorithm>

namespace kc {

void Messages::post(Topic topic, Severity severity, std::string text) {
    clear(topic);
    if (!text.empty()) list_.push_back({topic, severity, std::move(text)});
}

void Messages::clear(Topic topic) {
    std::erase_if(list_, [topic](const Message& m) { return m.topic == topic; });
}

const Message* Messages::find(Topic topic) const {
    const auto it = std::find_if(list_.begin(), list_.end(), [topic](const Message& m) { return m.topic == topic; });
    return it == list_.end() ? nullptr : &*it;
}

const std::string& Messages::text(Topic topic) const {
    static const std::string none;
    const Message* m = find(topic);
    return m ? m->text : none;
}

bool Messages::failed(Topic topic) const {
    const Message* m = find(topic);
    return m && m->severity >= Severity::Error;
}

std::vector<Message> Messages::most_serious_first() const {
    std::vector<Message> sorted = list_;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Message& a, const Message& b) { return a.severity > b.severity; });
    return sorted;
}

} // namespace kc
