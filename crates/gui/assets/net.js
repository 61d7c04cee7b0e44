// The one WebSocket to the server: connects to the game it was given (to
// find it again after a reload), reconnects with a growing pause when the
// connection is lost, and hands every message on as parsed JSON.

export class Connection {
  constructor({ game, onMessage, onStatus }) {
    this.game = game;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.retryMs = 250;
  }

  connect() {
    const query = this.game ? "?game=" + encodeURIComponent(this.game) : "";
    const socket = new WebSocket(`ws://${location.host}/ws${query}`);
    this.socket = socket;
    this.onStatus("connecting");
    socket.addEventListener("open", () => {
      this.retryMs = 250;
      this.onStatus("connected");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state") this.game = message.game;
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.onStatus("reconnecting");
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 4000);
    });
  }

  // Sends a command; false when there is no connection to send it on.
  send(command) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(command));
    return true;
  }
}
