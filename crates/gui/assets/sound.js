// Optional sounds (off by default), made on the spot with Web Audio: a
// click per stone sown, a deeper knock for a capture, a chord for a
// tuzdik, a short phrase at the end. No sound file is loaded.

export class Sound {
  constructor() {
    this.enabled = false;
    this.context = null;
  }

  setEnabled(on) {
    this.enabled = on;
  }

  // A tone of `freq` Hz for `ms`, starting `delay` ms from now.
  tone(freq, ms, volume, delay = 0, type = "sine") {
    if (!this.enabled) return;
    try {
      this.context ??= new AudioContext();
      const ctx = this.context;
      if (ctx.state === "suspended") ctx.resume();
      const at = ctx.currentTime + delay / 1000;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, at);
      gain.gain.setValueAtTime(volume, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + ms / 1000);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + ms / 1000 + 0.02);
    } catch {
      this.enabled = false;
    }
  }

  stone() {
    this.tone(900 + Math.random() * 250, 45, 0.05, 0, "triangle");
  }

  capture() {
    this.tone(220, 160, 0.12);
    this.tone(330, 160, 0.08, 60);
  }

  tuzdik() {
    this.tone(392, 260, 0.1);
    this.tone(494, 260, 0.08, 90);
    this.tone(587, 320, 0.08, 180);
  }

  end(won) {
    const notes = won ? [523, 659, 784] : [392, 330, 262];
    notes.forEach((f, i) => this.tone(f, 280, 0.09, i * 160));
  }
}
