"""Trains the character CNN of the DGA model and writes its weights as JSON.

    python train_cnn.py --rows rows.tsv --reference reference.tsv --out weights.json [--epochs N] [--seed S]

Called by tools/dga/cnn/train-cnn.ts, which computes the rows (label, class, weight and the standardised dense
features of libs/detection-engine/src/detections/dga/label-features.ts) and turns the weights into a model
file (thresholds and the benign profile are set there, on the benign validation slice).

rows.tsv:       y <TAB> weight <TAB> label <TAB> comma-separated standardised dense features
reference.tsv:  label <TAB> comma-separated standardised dense features (names whose scores are exported so that
                a test can check the TypeScript inference against this script)

Network: characters of `^label$` (padded to MAX_LENGTH with a zero vector) -> embedding -> one convolution per
kernel width -> ReLU -> max over positions; the pooled filters and the dense features -> ReLU layer -> logistic
output. The export folds the embedding into the convolutions: for every width, offset and character one row of
filter contributions, so inference adds table rows and multiplies nothing.
Deterministic: fixed seeds, one CPU thread.
"""
import argparse
import base64
import json
import os
import sys
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-_"
PAD, START, END, UNKNOWN = 0, 1, 2, 3
VOCAB = 4 + len(ALPHABET)
CHAR_ID = {c: 4 + i for i, c in enumerate(ALPHABET)}
MAX_LABEL = 32
MAX_LENGTH = MAX_LABEL + 2


def encode(label):
    ids = [START] + [CHAR_ID.get(c, UNKNOWN) for c in label[:MAX_LABEL]]
    if len(label) <= MAX_LABEL:
        ids.append(END)
    return ids + [PAD] * (MAX_LENGTH - len(ids))


def read_rows(path):
    ys, ws, labels, feats = [], [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            y, w, label, dense = line.rstrip("\n").split("\t")
            ys.append(float(y))
            ws.append(float(w))
            labels.append(label)
            feats.append([float(x) for x in dense.split(",")])
    return np.array(ys, np.float32), np.array(ws, np.float32), labels, np.array(feats, np.float32)


def read_reference(path):
    labels, feats = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            label, dense = line.rstrip("\n").split("\t")
            labels.append(label)
            feats.append([float(x) for x in dense.split(",")])
    return labels, np.array(feats, np.float32)


def init_params(key, widths, filters, emb_dim, dense_dim, hidden):
    keys = jax.random.split(key, 3 + len(widths))
    params = {"emb": jax.random.normal(keys[0], (VOCAB, emb_dim)) * 0.3}
    for i, w in enumerate(widths):
        params[f"conv{w}"] = jax.random.normal(keys[3 + i], (w, emb_dim, filters)) * (1.0 / np.sqrt(w * emb_dim))
        params[f"bias{w}"] = jnp.zeros((filters,))
    inputs = len(widths) * filters + dense_dim
    params["hidden"] = jax.random.normal(keys[1], (inputs, hidden)) * np.sqrt(2.0 / inputs)
    params["hidden_bias"] = jnp.zeros((hidden,))
    params["out"] = jax.random.normal(keys[2], (hidden,)) * np.sqrt(1.0 / hidden)
    params["out_bias"] = jnp.zeros(())
    return params


def forward(params, ids, feats, widths, dropout_key=None, dropout=0.0, dense_dropout=0.0):
    mask = (ids != PAD).astype(jnp.float32)[..., None]
    x = params["emb"][ids] * mask  # the padding character contributes nothing
    pooled = []
    for w in widths:
        kernel = params[f"conv{w}"]
        positions = MAX_LENGTH - w + 1
        conv = sum(jnp.einsum("bpe,ef->bpf", x[:, k : k + positions, :], kernel[k]) for k in range(w))
        pooled.append(jnp.max(jax.nn.relu(conv + params[f"bias{w}"]), axis=1))
    if dropout_key is not None and dense_dropout > 0:
        # Whole feature vectors dropped: the filters must carry the decision alone some of the time.
        dropout_key, sub = jax.random.split(dropout_key)
        keep_row = jax.random.bernoulli(sub, 1.0 - dense_dropout, (feats.shape[0], 1))
        feats = jnp.where(keep_row, feats / (1.0 - dense_dropout), 0.0)
    h = jnp.concatenate(pooled + [feats], axis=1)
    if dropout_key is not None and dropout > 0:
        keep = jax.random.bernoulli(dropout_key, 1.0 - dropout, h.shape)
        h = jnp.where(keep, h / (1.0 - dropout), 0.0)
    h = jax.nn.relu(h @ params["hidden"] + params["hidden_bias"])
    return h @ params["out"] + params["out_bias"]


def folded(params, widths):
    """Per width: table[k, c, f] = emb[c] . conv[k, :, f] (float32), the padding row zero."""
    emb = np.asarray(params["emb"], np.float32).copy()
    emb[PAD] = 0
    return {w: np.einsum("ce,kef->kcf", emb, np.asarray(params[f"conv{w}"], np.float32)).astype(np.float32) for w in widths}


def folded_logits(tables, params, labels, feats, widths):
    """The inference the TypeScript model runs (table sums), in numpy: the reference scores."""
    hidden = np.asarray(params["hidden"], np.float64)
    out = []
    for label, f in zip(labels, feats):
        ids = encode(label)
        pooled = []
        for w in widths:
            t = tables[w].astype(np.float64)
            bias = np.asarray(params[f"bias{w}"], np.float64)
            best = np.zeros(t.shape[2])
            for p in range(MAX_LENGTH - w + 1):
                s = bias.copy()
                for k in range(w):
                    s += t[k, ids[p + k]]
                best = np.maximum(best, s)
            pooled.append(best)
        h = np.concatenate(pooled + [f.astype(np.float64)])
        h = np.maximum(0, h @ hidden + np.asarray(params["hidden_bias"], np.float64))
        out.append(float(h @ np.asarray(params["out"], np.float64) + float(params["out_bias"])))
    return np.array(out)


def threshold_at(benign, fpr):
    s = np.sort(benign)[::-1]
    allowed = int(np.floor(fpr * len(s)))
    above = np.inf if allowed == 0 else s[allowed - 1]
    below = s[allowed]
    return below + 1e-9 if below == above else (above + below) / 2


def evaluate(params, widths, eval_dir):
    ys, styles, families, labels, feats = [], [], [], [], []
    with open(os.path.join(eval_dir, "eval.tsv"), encoding="utf-8") as f:
        for line in f:
            y, style, family, label, dense = line.rstrip("\n").split("\t")
            ys.append(int(y)); styles.append(style); families.append(family); labels.append(label)
            feats.append([float(x) for x in dense.split(",")])
    ids = np.array([encode(l) for l in labels], np.int32)
    feats = np.array(feats, np.float32)
    fwd = jax.jit(lambda i, x: forward(params, i, x, widths))
    z = np.concatenate([np.asarray(fwd(ids[b : b + 4096], feats[b : b + 4096])) for b in range(0, len(ids), 4096)])
    ys = np.array(ys); styles = np.array(styles); families = np.array(families)
    t = threshold_at(z[ys == 0], 0.001)
    tb = threshold_at(z[ys == 0], 0.01)
    print(f"threshold {t:.3f} (0.1 % FPR on {np.sum(ys == 0)} validation benign)", file=sys.stderr)
    left = np.array([f.startswith("left-out:") for f in families])
    benign = np.where(ys == 0)[0]
    top = benign[np.argsort(-z[benign])[:25]]
    print("  top validation benign: " + " ".join(f"{labels[i]}:{z[i]:.1f}" for i in top), file=sys.stderr)
    for style in ("random", "pronounceable", "dictionary"):
        m = left & (styles == style)
        if m.sum():
            med = np.median(z[m])
            print(f"  left-out {style}: median logit {med:.2f}, benign share above it {100 * np.mean(z[benign] >= med):.2f} %", file=sys.stderr)
    for name, sel in (("left-out", left), ("in-fold validation", ~left & (ys == 1))):
        for style in ("random", "pronounceable", "dictionary", "encoded"):
            m = sel & (styles == style)
            if m.sum() == 0:
                continue
            print(f"  {name} {style}: {100 * np.mean(z[m] >= t):.1f} % of {m.sum()} (burst {100 * np.mean(z[m] >= tb):.1f} %)", file=sys.stderr)
    for fam in sorted(set(families[left])):
        m = families == fam
        print(f"    {fam}: {100 * np.mean(z[m] >= t):.1f} %", file=sys.stderr)


def b64(array):
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--widths", default="2,3,4,5")
    ap.add_argument("--filters", type=int, default=24)
    ap.add_argument("--embedding", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--dropout", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--benign-weight", type=float, default=1.0, help="extra weight of the benign rows")
    ap.add_argument("--dense-dropout", type=float, default=0.0, help="dropout of whole dense-feature vectors")
    ap.add_argument("--eval-dir", help="experiments: score <dir>/eval.tsv (see dump-experiment.ts) and print TPR at 0.1 %% FPR")
    args = ap.parse_args()
    widths = [int(w) for w in args.widths.split(",")]

    started = time.time()
    ys, ws, labels, feats = read_rows(args.rows)
    ids = np.array([encode(l) for l in labels], np.int32)
    ws = np.where(ys == 0, ws * args.benign_weight, ws)
    ws = ws / ws.mean()
    n, dense_dim = feats.shape
    params = init_params(jax.random.PRNGKey(args.seed), widths, args.filters, args.embedding, dense_dim, args.hidden)
    steps_per_epoch = n // args.batch
    schedule = optax.cosine_decay_schedule(args.lr, steps_per_epoch * args.epochs)
    opt = optax.adamw(schedule, weight_decay=args.weight_decay)
    state = opt.init(params)

    def loss_fn(p, bid, bfeat, by, bw, key):
        z = forward(p, bid, bfeat, widths, key, args.dropout, args.dense_dropout)
        return jnp.sum(bw * optax.sigmoid_binary_cross_entropy(z, by)) / jnp.sum(bw)

    @jax.jit
    def step(p, s, bid, bfeat, by, bw, key):
        loss, grads = jax.value_and_grad(loss_fn)(p, bid, bfeat, by, bw, key)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    rng = np.random.default_rng(args.seed)
    key = jax.random.PRNGKey(args.seed + 1)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        total = 0.0
        for b in range(steps_per_epoch):
            idx = order[b * args.batch : (b + 1) * args.batch]
            key, sub = jax.random.split(key)
            params, state, loss = step(params, state, ids[idx], feats[idx], ys[idx], ws[idx], sub)
            total += float(loss)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total / steps_per_epoch:.4f} ({time.time() - started:.0f} s)", file=sys.stderr)

    if args.eval_dir:
        evaluate(params, widths, args.eval_dir)

    tables = folded(params, widths)
    ref_labels, ref_feats = read_reference(args.reference)
    ref = folded_logits(tables, params, ref_labels, ref_feats, widths)
    direct = np.asarray(forward(params, jnp.array([encode(l) for l in ref_labels], jnp.int32), jnp.array(ref_feats), widths))
    if np.max(np.abs(ref - direct)) > 1e-3:
        raise SystemExit(f"folded inference differs from the network by {np.max(np.abs(ref - direct))}")

    out = {
        "alphabet": ALPHABET,
        "maxLabel": MAX_LABEL,
        "widths": widths,
        "filters": args.filters,
        "tables": b64(np.concatenate([tables[w].reshape(-1) for w in widths])),
        "convBias": b64(np.concatenate([np.asarray(params[f"bias{w}"]) for w in widths])),
        "denseInputs": dense_dim,
        "hidden": b64(np.asarray(params["hidden"]).T),  # one row of inputs per hidden unit
        "hiddenBias": b64(params["hidden_bias"]),
        "out": b64(params["out"]),
        "outBias": float(params["out_bias"]),
        "reference": [{"label": l, "logit": round(float(z), 6)} for l, z in zip(ref_labels, ref)],
        "settings": {k: v for k, v in vars(args).items() if k not in ("rows", "reference", "out")},
        "versions": {"jax": jax.__version__, "optax": optax.__version__, "numpy": np.__version__},
        "seconds": round(time.time() - started),
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
