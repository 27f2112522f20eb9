import argparse

import numpy as np
import torch

from loading import get_query_tuple, process_data
from model import PointNetVlad

torch.manual_seed(0)

parser = argparse.ArgumentParser()
parser.add_argument("--num_points", type=int, default=64)
parser.add_argument("--positives_per_query", type=int, default=2)
parser.add_argument("--negatives_per_query", type=int, default=4)
parser.add_argument("--batch_num_queries", type=int, default=2)
parser.add_argument("--margin", type=float, default=0.5)
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("--shift_aug", type=int, default=8)
FLAGS = parser.parse_args()


def best_pos_distance(query, pos_vecs):
    num_pos = pos_vecs.shape[1]
    query_copies = query.repeat(1, int(num_pos), 1)
    diff = ((pos_vecs - query_copies) ** 2).sum(2)
    return diff.min(1)[0], diff.max(1)[0]


def triplet_loss(q_vec, pos_vecs, neg_vecs, margin):
    min_pos, _ = best_pos_distance(q_vec, pos_vecs)
    num_neg = neg_vecs.shape[1]
    min_pos = min_pos.view(-1, 1).repeat(1, num_neg)
    query_copies = q_vec.repeat(1, int(num_neg), 1)
    loss = margin + min_pos - ((neg_vecs - query_copies) ** 2).sum(2)
    return loss.clamp(min=0.0).max(1)[0].mean()


def run_model(model, queries, positives, negatives):
    feed_tensor = torch.cat((queries, positives, negatives), 1)
    feed_tensor = feed_tensor.view((-1, 1, FLAGS.num_points, 3))
    feed_tensor.requires_grad_(True)
    if FLAGS.shift_aug > 0:
        feed_tensor = process_data(feed_tensor.squeeze(1), FLAGS.shift_aug).unsqueeze(1)
    output = model(feed_tensor)
    output = output.view(FLAGS.batch_num_queries, -1, output.shape[-1])
    return torch.split(output, [1, FLAGS.positives_per_query, FLAGS.negatives_per_query], dim=1)


def train_one_epoch(model, optimizer, rng, steps=3):
    model.train()
    for step in range(steps):
        batch = [
            get_query_tuple(FLAGS.positives_per_query, FLAGS.negatives_per_query, FLAGS.num_points, rng)
            for _ in range(FLAGS.batch_num_queries)
        ]
        batch = torch.from_numpy(np.stack(batch))
        queries = batch[:, :1]
        positives = batch[:, 1:1 + FLAGS.positives_per_query]
        negatives = batch[:, 1 + FLAGS.positives_per_query:]
        q, p, n = run_model(model, queries, positives, negatives)
        loss = triplet_loss(q, p, n, FLAGS.margin)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    model = PointNetVlad()
    optimizer = torch.optim.Adam(model.parameters(), lr=FLAGS.lr)
    train_one_epoch(model, optimizer, rng)
