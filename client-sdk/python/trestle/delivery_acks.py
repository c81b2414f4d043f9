"""DeliveryAcks: the app's side of delivery acknowledgements
(docs/protocol.md, "Delivery acknowledgements"): the highest delivery_seq
taken in, duplicates at or below it, and one cumulative Ack per loop pass in
which deliveries were handed over."""
import asyncio

from trestle.wire import pb


class DeliveryAcks:
    def __init__(self, write):
        self._write = write      # write(frame) on the recv channel
        self.highest_seen = 0    # the highest delivery_seq taken in
        self._handed = 0         # the highest one handed over (or dropped as a duplicate)
        self._scheduled = False

    def reset(self) -> None:
        """A session with another numbering: start over."""
        self.highest_seen = 0
        self._handed = 0

    def take(self, delivery_seq: int) -> bool:
        """Whether this delivery is new (above every one taken in before)."""
        fresh = delivery_seq > self.highest_seen
        if fresh:
            self.highest_seen = delivery_seq
        return fresh

    def schedule(self, handed_upto: int) -> None:
        """Every delivery up to `handed_upto` is handed over (a by-key
        payload taken from the store first: the daemon unlinks its key at the
        Ack). The Ack leaves at the end of this loop pass, even when nothing
        was new, since duplicates come again only when unacknowledged."""
        self._handed = max(self._handed, handed_upto)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Writes the Ack for everything handed over so far, if due."""
        if not self._scheduled or self._handed == 0:
            return
        self._scheduled = False
        frame = pb.Frame()
        frame.ack.delivery_seq = self._handed
        try:
            self._write(frame)
        except Exception:  # the session ended: a resume re-sends, and they are acked then
            pass
