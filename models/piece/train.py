"""Trains the piece model on rendered crops and exports it to ONNX (models/piece.onnx).

Run by models/piece/rebuild.sh, which renders the data first (examples/piece_data.rs). The
product only runs the ONNX file; this script needs PyTorch and onnx (pip, see rebuild.sh).

The network reads one square's crop (64 x 64, BGR, 0-1; two squares wide, centred halfway up
the piece) and gives:
  embedding [n, 32]  unit length: what the square shows, compared with this game's examples;
  logits    [n, 13]  scaled cosines to the 13 trained class directions (0 empty, 1-6 White's
                     P N B R Q K, 7-12 Black's);
  classes   [13, 32] those directions, unit length.
The embedding is trained mostly to tell one board's pieces apart from each other wherever they
stand (a contrastive loss within each rendered look), because that is how the product uses it:
a game's reader compares each square with the 64 squares of that game's initial position.
A cosine classifier on the embedding (the logits) is trained alongside with a small weight.

Augmentation is meant to carry a model trained on two rendered sets over to real ones (it does
not yet carry it far enough: models/README.md has the figures): each crop's
colours are scaled per channel, its contrast and brightness moved, sometimes made grey,
blurred or noisier, turned by quarter turns and mirrored, and shifted by a few pixels.
"""

import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CROP = 64
CLASSES = 13
EMBED = 32
SCALE = 16.0
NAMES = ["empty", "P", "N", "B", "R", "Q", "K", "p", "n", "b", "r", "q", "k"]


class PieceNet(nn.Module):
    def __init__(self):
        super().__init__()
        # 32 pixels a square at the input: a knight's head and a bishop's mitre are a few
        # pixels each, and at 16 a square they were one blur (knights read as bishops).
        chans = [3, 12, 24, 48, 64, 64]
        layers = []
        for i in range(5):
            layers += [nn.Conv2d(chans[i], chans[i + 1], 3, padding=1, bias=False), nn.BatchNorm2d(chans[i + 1]), nn.ReLU()]
            if i < 4:
                layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.embed = nn.Linear(64, EMBED)
        self.classes = nn.Parameter(torch.randn(CLASSES, EMBED) * 0.1)

    def forward(self, x):
        # Each crop standardised on its own (all channels together, so colour ratios stay):
        # the board's brightness and the camera's gain are not what a piece is.
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        x = (x - mean) / (std + 0.05)
        h = self.features(x).mean(dim=(2, 3))
        e = F.normalize(self.embed(h), dim=1)
        w = F.normalize(self.classes, dim=1)
        return e, SCALE * e @ w.t(), w


def load(data):
    crops = np.fromfile(os.path.join(data, "crops.u8"), dtype=np.uint8).reshape(-1, 3, CROP, CROP)
    labels = np.fromfile(os.path.join(data, "labels.u8"), dtype=np.uint8).astype(np.int64)
    looks = np.fromfile(os.path.join(data, "looks.u16"), dtype=np.uint16).astype(np.int64)
    frames = np.fromfile(os.path.join(data, "frames.u8"), dtype=np.uint8).astype(np.int64)
    return crops, labels, looks, frames


def augment(x, gen):
    """x: float tensor [n, 3, H, W] in 0-1."""
    n = x.shape[0]
    r = lambda *s: torch.rand(*s, generator=gen)
    gain = 0.6 + 0.8 * r(n, 3, 1, 1)
    x = x * gain
    contrast = 0.6 + 0.8 * r(n, 1, 1, 1)
    m = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - m) * contrast + m + (r(n, 1, 1, 1) - 0.5) * 0.4
    grey = (r(n, 1, 1, 1) < 0.2).float()
    x = grey * x.mean(dim=1, keepdim=True).expand_as(x) + (1 - grey) * x
    blur = (r(n, 1, 1, 1) < 0.3).float()
    k = torch.tensor([1.0, 2.0, 1.0]) / 4.0
    kern = (k[:, None] * k[None, :]).expand(3, 1, 3, 3)
    xb = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), kern, groups=3)
    x = blur * xb + (1 - blur) * x
    x = x + torch.randn(x.shape, generator=gen) * (r(n, 1, 1, 1) * 0.04)
    # Quarter turns and mirrors: the lean may point any way.
    turns = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, turns, dims=(2, 3))
    if r(1).item() < 0.5:
        x = torch.flip(x, dims=(3,))
    # A shift of up to a tenth of a square (pieces set off-centre, corners found a little off).
    most = CROP // 10
    dx, dy = [int(v) for v in torch.randint(-most, most + 1, (2,), generator=gen)]
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    return x.clamp(0, 1)


def augment_per_look(x, gen):
    parts = [augment(x[i:i + 32], gen) for i in range(0, len(x), 32)]
    return torch.cat(parts)


def per_game_accuracy(model, crops, labels, looks, frame_of):
    """Held-out looks read by their nearest example in their own initial-position frame (and by
    the trained head, for comparison), on squares of the other frames."""
    model.eval()
    right_head = right_nn = total = 0
    with torch.no_grad():
        for look in np.unique(looks):
            idx = np.where(looks == look)[0]
            first = idx[frame_of[idx] == 0]
            rest = idx[frame_of[idx] != 0]
            if len(first) == 0 or len(rest) == 0:
                continue
            e0, _, _ = model(torch.from_numpy(crops[first]).float() / 255)
            e, logits, _ = model(torch.from_numpy(crops[rest]).float() / 255)
            nn_class = labels[first][(e @ e0.t()).argmax(1).numpy()]
            y = labels[rest]
            right_head += int((logits.argmax(1).numpy() == y).sum())
            right_nn += int((nn_class == y).sum())
            total += len(rest)
    return right_head / max(total, 1), right_nn / max(total, 1)


def within_look_contrast(e, y, look, tau=0.1):
    """Supervised contrastive loss inside each look: a crop is pulled towards crops of its class
    on the same board and set and pushed from the other classes there. What a game's reader
    needs is exactly that, telling this set's pieces apart from each other wherever they stand,
    not matching one rendered set's look."""
    sim = e @ e.t() / tau
    same_look = look[:, None] == look[None, :]
    eye = torch.eye(len(y), dtype=torch.bool)
    others = same_look & ~eye
    pos = others & (y[:, None] == y[None, :])
    sim = sim.masked_fill(~others, -1e9)
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    n_pos = pos.sum(1)
    keep = n_pos > 0
    loss = -(logp * pos).sum(1)[keep] / n_pos[keep]
    return loss.mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(os.cpu_count() or 2)
    gen = torch.Generator().manual_seed(args.seed)
    crops, labels, looks, frame_of = load(args.data)
    held = looks % 10 == 0
    tr = np.where(~held)[0]
    print(f"{len(crops)} crops, {len(tr)} to train on, {held.sum()} held out ({len(np.unique(looks[held]))} looks)", flush=True)
    model = PieceNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * (len(tr) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    # Pieces are rarer than empty squares and kings rarer than pawns: weight the loss so that
    # every class counts alike.
    counts = np.bincount(labels[tr], minlength=CLASSES).astype(np.float64)
    weights = torch.tensor((counts.sum() / (CLASSES * np.maximum(counts, 1))) ** 0.5, dtype=torch.float32)
    step = 0
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        # Batches of 8 looks × 32 crops, so that every crop has its board-mates to be told from.
        look_ids = np.unique(looks[tr])
        by_look = {k: tr[looks[tr] == k] for k in look_ids}
        batches = len(tr) // 256
        total_loss = 0.0
        for b in range(batches):
            chosen = look_ids[torch.randperm(len(look_ids), generator=gen)[:8].numpy()]
            idx = np.concatenate([by_look[k][torch.randint(0, len(by_look[k]), (32,), generator=gen).numpy()] for k in chosen])
            x = augment_per_look(torch.from_numpy(crops[idx]).float() / 255, gen)
            y = torch.from_numpy(labels[idx])
            e, logits, _ = model(x)
            loss = within_look_contrast(e, y, torch.from_numpy(looks[idx])) + 0.3 * F.cross_entropy(logits, y, weight=weights, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total_loss += loss.item()
        head, nearest = per_game_accuracy(model, crops[held], labels[held], looks[held], frame_of[held])
        print(f"epoch {epoch + 1}: loss {total_loss / max(1, batches):.3f}, held-out looks: head {head:.4f}, "
              f"nearest example of the look's initial position {nearest:.4f} ({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    export(model, crops[held], labels[held], args.out, head, nearest)


def export(model, crops, labels, out, head, nearest):
    os.makedirs(out, exist_ok=True)
    onnx_path = os.path.join(out, "piece.onnx")
    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(model, dummy, onnx_path, input_names=["crops"], output_names=["embedding", "logits", "classes"],
                      dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
                      dynamo=False)
    # The reference: sixteen held-out crops (a few of each kind) and what PyTorch makes of them;
    # the Rust test runs the ONNX file through ONNX Runtime on the same bytes and compares.
    pick = []
    for c in range(CLASSES):
        pick += list(np.where(labels == c)[0][:2])
    pick = np.array(pick[:26])
    ref = crops[pick]
    with torch.no_grad():
        e, logits, _ = model(torch.from_numpy(ref).float() / 255)
    ref.tofile(os.path.join(out, "reference.u8"))
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump({"n": int(len(pick)), "labels": [int(v) for v in labels[pick]],
                   "embedding": [[round(float(v), 6) for v in row] for row in e.numpy()],
                   "logits": [[round(float(v), 5) for v in row] for row in logits.numpy()],
                   "held_out_accuracy": {"trained_head": round(head, 4), "nearest_initial_example": round(nearest, 4)}}, f)
    print(f"wrote {onnx_path} ({os.path.getsize(onnx_path)} bytes) and the reference outputs", flush=True)


if __name__ == "__main__":
    main()
