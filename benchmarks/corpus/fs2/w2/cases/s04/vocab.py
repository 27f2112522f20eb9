from contextlib import contextmanager

import torch
import torch.nn as nn


def collect_used_token_ids(batches, special_ids):
    used = set(special_ids)
    for input_ids, _ in batches:
        used.update(input_ids.unique().tolist())
    return torch.tensor(sorted(used))


@contextmanager
def reduce_train_vocab(model, used_ids):
    full_embeddings = model.get_input_embeddings()
    small = nn.Embedding(len(used_ids), full_embeddings.embedding_dim)
    with torch.no_grad():
        small.weight.copy_(full_embeddings.weight[used_ids])
    model.set_input_embeddings(small)

    lookup = torch.full((full_embeddings.num_embeddings,), -1, dtype=torch.long)
    lookup[used_ids] = torch.arange(len(used_ids))

    def remap(input_ids):
        return lookup[input_ids]

    try:
        yield remap
    finally:
        with torch.no_grad():
            full_embeddings.weight[used_ids] = small.weight
        model.set_input_embeddings(full_embeddings)
