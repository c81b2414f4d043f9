"""ReceivedIds: the message ids of the last N deliveries, against a federated
daemon's redelivery under another numbering (ClientOptions.duplicate_window)."""
import collections


class ReceivedIds:
    def __init__(self, window: int):
        self._window = window
        self._order = collections.deque()
        self._ids = set()

    def insert(self, message_id: int) -> bool:
        """False if `message_id` is among the last `window` inserted."""
        if message_id in self._ids:
            return False
        self._ids.add(message_id)
        self._order.append(message_id)
        if len(self._order) > self._window:
            self._ids.discard(self._order.popleft())
        return True
