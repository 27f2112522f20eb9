from collections import defaultdict

import numpy as np
import torch

from model import TuckER

CONFIG = {
    "lr": 0.005, "ent_dim": 16, "rel_dim": 8, "epochs": 4, "batch_size": 32,
    "lr_decay": 0.99, "label_smoothing": 0.1,
    "dropout": {"input_dropout": 0.2, "hidden_dropout1": 0.2, "hidden_dropout2": 0.3},
}


def load_triples(n_entities=30, n_relations=4, n_triples=240, seed=0):
    rng = np.random.RandomState(seed)
    entities = ["/m/%03d" % i for i in range(n_entities)]
    relations = ["/rel/%d" % i for i in range(n_relations)]
    triples = [(entities[rng.randint(n_entities)], relations[rng.randint(n_relations)],
                entities[rng.randint(n_entities)]) for _ in range(n_triples)]
    return entities, relations, triples


def build_vocab(names):
    return {name: i for i, name in enumerate(sorted(names))}


def one_to_n_batches(er_vocab, pairs, n_entities, batch_size, label_smoothing):
    for start in range(0, len(pairs), batch_size):
        batch = pairs[start:start + batch_size]
        targets = torch.zeros(len(batch), n_entities)
        for row, pair in enumerate(batch):
            targets[row, er_vocab[pair]] = 1.0
        targets = (1.0 - label_smoothing) * targets + 1.0 / n_entities
        idx = torch.tensor(batch)
        yield idx[:, 0], idx[:, 1], targets


def train(cfg):
    entities, relations, triples = load_triples()
    ent2id, rel2id = build_vocab(entities), build_vocab(relations)
    er_vocab = defaultdict(list)
    for h, r, t in triples:
        er_vocab[(ent2id[h], rel2id[r])].append(ent2id[t])
    pairs = list(er_vocab.keys())

    model = TuckER(len(ent2id), len(rel2id), cfg["ent_dim"], cfg["rel_dim"], **cfg["dropout"])
    model.reset_parameters()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, cfg["lr_decay"])

    for epoch in range(1, cfg["epochs"] + 1):
        model.train()
        np.random.shuffle(pairs)
        losses = []
        for heads, rels, targets in one_to_n_batches(er_vocab, pairs, len(ent2id),
                                                     cfg["batch_size"], cfg["label_smoothing"]):
            optimizer.zero_grad()
            loss = model.loss(model(heads, rels), targets)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        scheduler.step()
        print(f"epoch {epoch}: loss {np.mean(losses):.6f}")
    return model, rel2id, triples


if __name__ == "__main__":
    torch.manual_seed(20)
    np.random.seed(20)
    model, rel2id, triples = train(CONFIG)
