#!/usr/bin/python3
"""Trains Chariot's NNUE evaluation network on `chariot datagen` data.

    /usr/bin/python3 tools/nnue/train.py --data gen1-s1.data --out-dir runs/r1 [--hidden 256] [--epochs 10]
    /usr/bin/python3 tools/nnue/train.py --data gen2-s2.data --out-dir runs/r2 --init nets/chariot-<hash>.nnue

--king-buckets --head 16 trains a net of format 3 (a 16-unit hidden layer per
output bucket; see netfile.py); with --init of a format 2 net its feature
transformer is kept and the head starts fresh.

--init starts from a net's weights (the next round learns on from the last
net); otherwise the weights start random. --epochs 0 with --init only
measures that net's validation loss (give --k and --seed to compare nets on
the same held-out games).

Loss: MSE between sigmoid(eval / K) and lambda * sigmoid(score / K) +
(1 - lambda) * result, all from the side to move's view (result 1 win, 0.5
draw, 0 loss). Without --k, K is fitted on the training positions by a
logistic regression of the result on the search score.

Writes into --out-dir: checkpoints/epoch-NNNN.pt every epoch (--resume one of
them to continue), the quantised net chariot-<sha256[:12]>.nnue at the end
(and every --export-every epochs) with a .json provenance file beside it, and
cache/ with the converted data (or --cache DIR).
"""

import argparse
import math
import os
import sys
import time

import numpy as np

import data as D
import netfile as N


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="data files (chariot datagen)")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--hidden", type=int, default=None,
                    help="hidden size H, a multiple of 32 (default 256; with --init the net's own, or a larger H "
                         "to widen it: the new units start with zero output weights, so the widened net "
                         "evaluates exactly as the given one before training)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=1e-3, help="initial learning rate (Adam)")
    ap.add_argument("--lr-final", type=float, default=0.05,
                    help="the cosine schedule ends at lr * this (default 0.05)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75,
                    help="weight of the search score against the game result (default 0.75)")
    ap.add_argument("--k", type=float, default=None, help="sigmoid scale K in internal units (default: fitted)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--val-fraction", type=float, default=0.02, help="share of games held out (default 0.02)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="torch device to train on: cpu (default; reproducible from --seed) or cuda (a GPU: "
                         "much faster, not bit-reproducible)")
    ap.add_argument("--resume", help="a checkpoint to continue from")
    ap.add_argument("--init", metavar="NET",
                    help="start from this net file's weights (a .nnue, e.g. the default net) instead of random "
                         "ones; its hidden size is used")
    ap.add_argument("--max-positions", type=int, default=None, help="use only the first N quiet positions")
    ap.add_argument("--every", type=int, default=1, metavar="K",
                    help="use every K-th quiet position in file order (after --max-positions): each game keeps "
                         "about 1/K of its positions, to measure what a game's further positions add")
    ap.add_argument("--export-every", type=int, default=0, help="also export the net every N epochs")
    ap.add_argument("--cache", default=None, help="cache directory for converted data (default OUT_DIR/cache)")
    ap.add_argument("--no-mirror", action="store_true", help="no left-right mirror augmentation")
    ap.add_argument("--king-buckets", action="store_true",
                    help="king-bucketed features (net format 2: 6 buckets by the own king's palace square, "
                         "mirrored right of the centre file) with a factoriser; with --init of a net without "
                         "them, its weights start the shared block and the model evaluates as that net did "
                         "wherever the kings stand on files d and e")
    ap.add_argument("--head", type=int, default=None, metavar="L",
                    help="a hidden layer of L units (8..32, a multiple of 8) per output bucket between the "
                         "accumulators and the output (net format 3; needs --king-buckets); with --init of a "
                         "net without one, its feature transformer is kept and the head starts fresh")
    ap.add_argument("--bucket-decay", type=float, default=0.0, metavar="WD",
                    help="decoupled weight decay of the king buckets' own weights toward the factoriser's "
                         "shared block (each step multiplies them by 1 - lr * WD; needs --king-buckets; with "
                         "--init of a king-bucketed net, the buckets' mean first moves into the shared block). "
                         "Default 0: none")
    ap.add_argument("--ft-decay", type=float, default=0.0, metavar="WD",
                    help="decoupled weight decay of every feature weight toward zero (each step multiplies "
                         "them by 1 - lr * WD; beside --bucket-decay, it also shrinks the shared block): a "
                         "regulariser for a wide accumulator on little data. Default 0: none")
    ap.add_argument("--qat", action="store_true",
                    help="quantisation-aware training: the output layer trains on its int16-rounded weights")
    ap.add_argument("--progress", type=float, default=10.0, help="seconds between progress lines")
    args = ap.parse_args(argv)
    if args.hidden is not None and (args.hidden <= 0 or args.hidden % 32):
        ap.error("--hidden must be a positive multiple of 32")
    if not 0.0 <= args.lam <= 1.0:
        ap.error("--lambda must be within 0..1")
    if not 0.0 <= args.val_fraction < 1.0:
        ap.error("--val-fraction must be within [0, 1)")
    if args.epochs < 0 or args.batch < 1:
        ap.error("--epochs must be non-negative and --batch positive")
    if args.every < 1:
        ap.error("--every must be at least 1")
    if args.epochs == 0 and not args.init:
        ap.error("--epochs 0 (only measure a net's validation loss) needs --init NET")
    if args.head is not None:
        if not args.king_buckets:
            ap.error("--head needs --king-buckets (format 3 nets have king-bucketed features)")
        if not (N.HEAD_MIN <= args.head <= N.HEAD_MAX and args.head % 8 == 0):
            ap.error(f"--head must be a multiple of 8 within {N.HEAD_MIN}..{N.HEAD_MAX}")
    if args.bucket_decay < 0:
        ap.error("--bucket-decay must be non-negative")
    if args.bucket_decay and not args.king_buckets:
        ap.error("--bucket-decay needs --king-buckets")
    if args.ft_decay < 0:
        ap.error("--ft-decay must be non-negative")
    if args.init and args.resume:
        ap.error("--init and --resume exclude each other (a checkpoint already has its weights)")
    return args


def log(message):
    print(message, flush=True)


def validation_mask(game_keys, fraction, seed):
    """Holds out whole games (positions of one game are strongly correlated), chosen by a hash of
    the game's identity and the seed, so the split does not move when files grow or merge."""
    if fraction <= 0:
        return np.zeros(len(game_keys), dtype=bool)
    h = D._mix64(np.asarray(game_keys, dtype=np.uint64) ^ D._mix64(np.array([seed], dtype=np.uint64))[0])
    u = (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return u < fraction


def fit_k(score, result, max_samples=2_000_000, seed=0):
    """K minimising the cross-entropy of sigmoid(score / K) against the result (0, 0.5, 1):
    a one-parameter logistic regression without intercept, solved by Newton's method on 1/K."""
    s = np.asarray(score, dtype=np.float64)
    r = np.asarray(result, dtype=np.float64)
    if len(s) > max_samples:
        pick = np.random.default_rng(seed).choice(len(s), max_samples, replace=False)
        s, r = s[pick], r[pick]
    if len(s) == 0 or not np.any(s):
        raise ValueError("cannot fit K: no positions with a non-zero score")
    w = 1.0 / 400.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(w * s, -60, 60)))
        grad = np.sum((p - r) * s)
        hess = np.sum(p * (1 - p) * s * s) + 1e-12
        step = grad / hess
        w_new = w - step
        if w_new <= 0:  # keep K positive (results that do not follow the score)
            w_new = w / 2
        if abs(w_new - w) < 1e-12 * max(1.0, abs(w)):
            w = w_new
            break
        w = w_new
    return 1.0 / w


def cosine_lr(step, total, lr, final):
    if total <= 1:
        return lr
    t = min(1.0, step / (total - 1))
    return lr * (final + (1.0 - final) * 0.5 * (1.0 + math.cos(math.pi * t)))


def loss_terms(torch, model, features, offsets, bucket, score, result, k, lam):
    y = model(features, offsets, bucket)
    pred = torch.sigmoid(y * (N.SCALE / k))
    target = lam * torch.sigmoid(score / k) + (1.0 - lam) * result
    return ((pred - target) ** 2).mean()


def batch_tensors(torch, M, ds, idx, mirror=None, device="cpu", king_buckets=1):
    features, offsets = M.perspective_batch(ds.red[idx], ds.black[idx], ds.stm[idx], mirror, king_buckets)
    bucket = torch.from_numpy(ds.bucket[idx].astype(np.int64))
    score = torch.from_numpy(ds.score[idx].astype(np.float32))
    result = torch.from_numpy(ds.result[idx].astype(np.float32) * 0.5)
    return tuple(t.to(device) for t in (features, offsets, bucket, score, result))


def validation_loss(torch, M, model, ds, k, lam, batch=65536):
    if len(ds) == 0:
        return float("nan")
    device = model.ft_bias.device
    model.eval()
    total = 0.0
    with torch.no_grad():
        for lo in range(0, len(ds), batch):
            idx = np.arange(lo, min(len(ds), lo + batch))
            tensors = batch_tensors(torch, M, ds, idx, device=device, king_buckets=model.king_buckets)
            loss = loss_terms(torch, model, *tensors, k, lam)
            total += float(loss) * len(idx)
    model.train()
    return total / len(ds)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    # Idle OpenMP threads sleep instead of spinning: on a machine shared with other busy jobs,
    # spinning threads make 2 threads slower than 1. Only takes effect before torch loads.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch

    import model as M

    torch.set_num_threads(args.threads)
    try:
        device = torch.device(args.device)
        torch.zeros(1, device=device)
    except (RuntimeError, AssertionError) as e:
        log(f"error: --device {args.device}: {e}")
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    ckpt_dir = os.path.join(args.out_dir, "checkpoints")
    os.makedirs(ckpt_dir, exist_ok=True)
    cache = args.cache or os.path.join(args.out_dir, "cache")

    t0 = time.monotonic()
    dataset, infos = D.load_dataset(args.data, cache, args.max_positions, log=log)
    if args.every > 1:
        dataset = dataset.subset(slice(None, None, args.every))
    if len(dataset) == 0:
        log("error: no quiet positions in the data")
        return 1
    val_mask = validation_mask(dataset.game, args.val_fraction, args.seed)
    train = dataset.subset(np.flatnonzero(~val_mask))
    val = dataset.subset(np.flatnonzero(val_mask))
    log(f"data: {len(dataset)} quiet positions ({len(train)} train, {len(val)} validation by game) "
        f"loaded in {time.monotonic() - t0:.1f} s")
    if len(train) == 0:
        log("error: no training positions left after the validation split")
        return 1

    start_epoch = 1
    history = []
    resume = None
    if args.resume:
        model, resume = M.load_checkpoint(args.resume)
        model.qat = args.qat
        if args.head is not None and model.head != args.head:
            log(f"note: the checkpoint has head size {model.head}; using it")
        if args.hidden is not None and model.hidden != args.hidden:
            log(f"note: the checkpoint has hidden size {model.hidden}; using it")
        args.hidden = model.hidden
        start_epoch = resume["epoch"] + 1
        history = list(resume.get("history", []))
        if resume.get("train_positions") != len(train):
            log(f"warning: the checkpoint was trained on {resume.get('train_positions')} positions, "
                f"now {len(train)}: the continuation is not the same as one uninterrupted run")

    init = None
    if args.init:
        try:
            init = N.read_net(args.init)
        except (OSError, N.NetError) as e:
            log(f"error: --init: {e}")
            return 1
        if args.hidden is None or args.hidden == init.hidden:
            args.hidden = init.hidden
        elif args.hidden < init.hidden:
            log(f"error: --hidden {args.hidden} is smaller than {args.init}'s {init.hidden} (a net can only be widened)")
            return 1
        else:
            log(f"widening {args.init} from hidden size {init.hidden} to {args.hidden}")
    if args.hidden is None:
        args.hidden = 256

    k = args.k
    if k is None and resume is not None:
        k = resume["k"]
        log(f"K = {k:.1f} (from the checkpoint)")
    elif k is None:
        k = fit_k(train.score, train.result * 0.5, seed=args.seed)
        log(f"K = {k:.1f} (fitted: logistic regression of the result on the score over {len(train)} positions)")
    else:
        log(f"K = {k:.1f} (given)")

    torch.manual_seed(args.seed)
    if init is not None:
        king_buckets = D.KING_BUCKETS if args.king_buckets else None
        if init.king_buckets > 1 and not args.king_buckets:
            log(f"note: {args.init} has king buckets; the model keeps them")
        if init.head is not None and args.head not in (None, init.head.size):
            log(f"error: --head {args.head}: {args.init} has a head of size {init.head.size}")
            return 1
        model = M.from_net(init, qat=args.qat, hidden=args.hidden, king_buckets=king_buckets, head=args.head)
        if args.bucket_decay and init.king_buckets > 1:
            model.refactor_()
    elif resume is None:
        model = M.Net(args.hidden, qat=args.qat, king_buckets=D.KING_BUCKETS if args.king_buckets else 1,
                      head=args.head or 0)
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    if resume is not None and resume.get("optimizer"):
        optimizer.load_state_dict(resume["optimizer"])  # its state moves to the parameters' device
    model.train()

    steps_per_epoch = math.ceil(len(train) / args.batch)
    total_steps = steps_per_epoch * args.epochs
    step = (start_epoch - 1) * steps_per_epoch
    provenance = {
        "data": [{k_: info[k_] for k_ in ("path", "sha256", "sha256_of", "good_bytes", "games", "quiet_positions",
                                           "positions_used", "damage")} for info in infos],
        "positions": {"total": len(dataset), "train": len(train), "validation": len(val)},
        "every": args.every,
        "K": k,
        "K_fitted": args.k is None,
        "lambda": args.lam,
        "hidden": args.hidden,
        "king_buckets": model.king_buckets,
        "head": model.head,
        "epochs_planned": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "lr_final": args.lr_final,
        "init": {"path": os.path.abspath(args.init), "sha256": M.sha256_file(args.init)} if args.init else None,
        "mirror": not args.no_mirror,
        "qat": args.qat,
        "bucket_decay": args.bucket_decay,
        "ft_decay": args.ft_decay,
        "seed": args.seed,
        "device": args.device,
        "val_fraction": args.val_fraction,
        "command": " ".join([os.path.basename(sys.executable), sys.argv[0]] + list(argv)),
        "torch": torch.__version__,
    }
    if init is not None:
        # Where the run starts: the given net's loss on this data (what the training must beat).
        provenance["init"]["val_loss"] = validation_loss(torch, M, model, val, k, args.lam)
        log(f"the --init net's validation loss: {provenance['init']['val_loss']:.6f}")
        if args.epochs == 0:
            # Comparing nets trained on different data: each measured on the same held-out games and K.
            log(f"--epochs 0: measured only, nothing trained ({len(val)} validation positions, K {k:.1f})")
            return 0
    log(f"training: hidden {args.hidden}, king buckets {model.king_buckets}, head {model.head or 'none'}, batch {args.batch}, {steps_per_epoch} steps an epoch, epochs "
        f"{start_epoch}..{args.epochs}, lr {args.lr} cosine to {args.lr * args.lr_final:g}, lambda {args.lam}, "
        f"mirror {'on' if not args.no_mirror else 'off'}, qat {'on' if args.qat else 'off'}, "
        f"bucket decay {args.bucket_decay:g}, feature decay {args.ft_decay:g}, {args.threads} threads, "
        f"device {args.device}")

    last_export = None

    def do_export(epoch, train_loss, val_loss):
        prov = dict(provenance, epochs=epoch, final_train_loss=train_loss, final_val_loss=val_loss,
                    history=history)
        check = (val if len(val) else train).subset(slice(0, 50000))
        path, info = M.export(model, out_dir=args.out_dir, provenance=prov, check=check, k=k, lam=args.lam)
        qc = info.get("quantisation_check", {})
        log(f"exported {path}; integer net vs float on {qc.get('positions', 0)} positions: mean |diff| "
            f"{qc.get('mean_abs_diff')}, max {qc.get('max_abs_diff')}, int32 overflows {qc.get('int32_overflows')}; "
            f"loss float {qc.get('float_loss', float('nan')):.6f}, integer {qc.get('integer_loss', float('nan')):.6f}")
        return path

    for epoch in range(start_epoch, args.epochs + 1):
        epoch_start = time.monotonic()
        rng = np.random.default_rng([args.seed, epoch])
        order = rng.permutation(len(train))
        mirror_all = rng.random(len(train)) < 0.5 if not args.no_mirror else None
        total_loss, seen = 0.0, 0
        last_progress = time.monotonic()
        for b in range(steps_per_epoch):
            idx = order[b * args.batch : (b + 1) * args.batch]
            mirror = mirror_all[b * args.batch : (b + 1) * args.batch] if mirror_all is not None else None
            lr = cosine_lr(step, total_steps, args.lr, args.lr_final)
            for group in optimizer.param_groups:
                group["lr"] = lr
            tensors = batch_tensors(torch, M, train, idx, mirror, device, model.king_buckets)
            loss = loss_terms(torch, model, *tensors, k, args.lam)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if args.bucket_decay:
                model.decay_buckets_(1.0 - lr * args.bucket_decay)
            if args.ft_decay:
                model.decay_features_(1.0 - lr * args.ft_decay)
            model.clip_()
            step += 1
            total_loss += float(loss) * len(idx)
            seen += len(idx)
            now = time.monotonic()
            if args.progress > 0 and now - last_progress >= args.progress:
                last_progress = now
                log(f"  epoch {epoch} step {b + 1}/{steps_per_epoch}: loss {total_loss / seen:.6f}, "
                    f"{seen / (now - epoch_start):,.0f} positions/s, lr {lr:.2e}")
        train_loss = total_loss / max(seen, 1)
        val_loss = validation_loss(torch, M, model, val, k, args.lam)
        elapsed = time.monotonic() - epoch_start
        history.append({"epoch": epoch, "train_loss": train_loss, "val_loss": val_loss, "seconds": round(elapsed, 2)})
        log(f"epoch {epoch}/{args.epochs}: train loss {train_loss:.6f}, validation loss {val_loss:.6f}, "
            f"{elapsed:.1f} s ({seen / elapsed:,.0f} positions/s), lr {lr:.2e}")
        M.save_checkpoint(os.path.join(ckpt_dir, f"epoch-{epoch:04d}.pt"), model, optimizer, {
            "epoch": epoch, "k": k, "history": history, "train_positions": len(train),
            "args": vars(args), "provenance": dict(provenance, epochs=epoch, final_train_loss=train_loss,
                                                   final_val_loss=val_loss),
        })
        if epoch == args.epochs or (args.export_every and epoch % args.export_every == 0):
            last_export = do_export(epoch, train_loss, val_loss)
    if last_export is None:
        log("nothing to train: the checkpoint is at or past --epochs")
    log(f"done in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
