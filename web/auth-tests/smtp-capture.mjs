// A real SMTP server on loopback that accepts every message (no TLS, no
// authentication: the studio talks to a relay on this machine in clear) and
// keeps it, for tests that read the mails the binary sends.
import net from "node:net";

/**
 * startCapture listens on 127.0.0.1 on a free port. mails holds each message
 * accepted: its recipients and its text (headers and body, with CRLF as LF).
 * next(to) waits for the next message to the address.
 */
export async function startCapture() {
  const mails = [];
  let notify = () => {};
  const server = net.createServer((sock) => {
    sock.setEncoding("utf8");
    let buf = "";
    let inData = false;
    let data = "";
    let to = [];
    const reply = (line) => sock.write(line + "\r\n");
    reply("220 capture ESMTP");
    sock.on("data", (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf("\r\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            mails.push({ to, data });
            data = "";
            to = [];
            reply("250 2.0.0 queued");
            notify();
          } else {
            data += (line.startsWith("..") ? line.slice(1) : line) + "\n";
          }
          continue;
        }
        const verb = line.split(" ")[0].toUpperCase();
        switch (verb) {
          case "EHLO":
          case "HELO":
            reply("250 capture");
            break;
          case "MAIL":
          case "NOOP":
            reply("250 2.0.0 OK");
            break;
          case "RSET":
            to = [];
            reply("250 2.0.0 OK");
            break;
          case "RCPT":
            to.push((line.match(/<([^>]*)>/) ?? [])[1]);
            reply("250 2.1.5 OK");
            break;
          case "DATA":
            inData = true;
            reply("354 end with <CRLF>.<CRLF>");
            break;
          case "QUIT":
            reply("221 2.0.0 bye");
            sock.end();
            break;
          default:
            reply("502 5.5.2 not implemented");
        }
      }
    });
    sock.on("error", () => {});
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();

  async function next(address, seen, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.slice(seen).find((m) => m.to.includes(address));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise((resolve) => {
        notify = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  return { url: `smtp://127.0.0.1:${port}`, mails, next, close: () => server.close() };
}

/** body is the text of a quoted-printable mail's body. */
export function body(mail) {
  const text = mail.data.slice(mail.data.indexOf("\n\n") + 2);
  const bytes = Buffer.from(
    text.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  );
  return bytes.toString("utf8");
}
