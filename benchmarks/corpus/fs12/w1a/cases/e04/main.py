import argparse

import torch
import torch.nn as nn

from model import SimilarityModel
from utils import init_embedding, load_word_vectors, map_label_to_target


def parse_args():
    parser = argparse.ArgumentParser(description="semantic relatedness")
    parser.add_argument("--vocab_size", type=int, default=2000)
    parser.add_argument("--input_dim", type=int, default=50)
    parser.add_argument("--mem_dim", type=int, default=64)
    parser.add_argument("--hidden_dim", type=int, default=32)
    parser.add_argument("--num_classes", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batchsize", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--sparse", action="store_true")
    parser.add_argument("--freeze_embed", action="store_true")
    return parser.parse_args()


def make_pairs(args, n=96):
    g = torch.Generator().manual_seed(1)
    L = 12
    lens_l = torch.randint(3, L + 1, (n,), generator=g)
    lens_r = torch.randint(3, L + 1, (n,), generator=g)
    pos = torch.arange(L)[None, :]
    left = torch.randint(1, args.vocab_size, (n, L), generator=g) * (pos < lens_l[:, None])
    right = torch.randint(1, args.vocab_size, (n, L), generator=g) * (pos < lens_r[:, None])
    scores = 1 + 4 * torch.rand(n, generator=g)
    return left, lens_l, right, lens_r, scores


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = SimilarityModel(args.vocab_size, args.input_dim, args.mem_dim, args.hidden_dim,
                            args.num_classes, args.sparse, args.freeze_embed)
    emb = load_word_vectors(args.vocab_size, args.input_dim)
    init_embedding(model.emb, emb)
    criterion = nn.KLDivLoss(reduction="batchmean")
    optimizer = torch.optim.Adagrad(filter(lambda p: p.requires_grad, model.parameters()), lr=args.lr)

    left, lens_l, right, lens_r, scores = make_pairs(args)
    for epoch in range(args.epochs):
        total = 0.0
        for i in range(0, left.size(0), args.batchsize):
            sl = slice(i, i + args.batchsize)
            output = model(left[sl], lens_l[sl], right[sl], lens_r[sl])
            target = map_label_to_target(scores[sl], args.num_classes)
            loss = criterion(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} train loss {total:.4f}")


if __name__ == "__main__":
    main()
