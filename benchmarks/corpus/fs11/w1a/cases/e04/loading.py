import numpy as np
import torch


def load_pc_files(num, num_points, rng):
    return rng.standard_normal((num, num_points, 3)).astype(np.float32)


def get_query_tuple(num_pos, num_neg, num_points, rng):
    query = load_pc_files(1, num_points, rng)
    pos = load_pc_files(num_pos, num_points, rng)
    neg = load_pc_files(num_neg, num_points, rng)
    return np.concatenate([query, pos, neg], axis=0)


def process_data(ob, max_shift):
    for i in range(ob.shape[0]):
        seed = int(torch.randint(0, max_shift + 1, (1,)))
        ob[i] = torch.roll(ob[i], seed, dims=1)
    return ob
