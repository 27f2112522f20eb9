import torch

from models import MODELS
from tools import get_optimizer, get_params_options

ARGS = {
    "model": "ScaleShiftMACE",
    "num_elements": 3,
    "channels": 16,
    "num_interactions": 2,
    "r_max": 5.0,
    "num_bessel": 8,
    "lr": 1e-2,
    "weight_decay": 5e-7,
    "amsgrad": True,
    "optimizer": "adam",
    "max_num_epochs": 3,
    "batches_per_epoch": 4,
    "seed": 123,
}


def random_batch(num_graphs, atoms_per_graph, num_elements, generator):
    n = num_graphs * atoms_per_graph
    species = torch.randint(0, num_elements, (n,), generator=generator)
    node_attrs = torch.nn.functional.one_hot(species, num_elements).float()
    positions = torch.rand(n, 3, generator=generator) * 4.0
    batch = torch.arange(num_graphs).repeat_interleave(atoms_per_graph)
    senders, receivers = [], []
    for g in range(num_graphs):
        base = g * atoms_per_graph
        for i in range(atoms_per_graph):
            for j in range(atoms_per_graph):
                if i != j:
                    senders.append(base + i)
                    receivers.append(base + j)
    edge_index = torch.tensor([senders, receivers])
    energy = 3.0 * node_attrs[:, 0].new_zeros(num_graphs).index_add_(0, batch, species.float()) - 4.0
    return {"node_attrs": node_attrs, "positions": positions, "edge_index": edge_index,
            "batch": batch, "num_graphs": num_graphs, "energy": energy}


def compute_average_interaction_stats(batches):
    energies = torch.cat([b["energy"] / (b["batch"].bincount()).float() for b in batches])
    return energies.std().item(), energies.mean().item()


def main():
    args = ARGS
    torch.manual_seed(args["seed"])
    generator = torch.Generator().manual_seed(args["seed"])
    train_batches = [random_batch(4, 5, args["num_elements"], generator) for _ in range(args["batches_per_epoch"])]

    model_config = dict(
        num_elements=args["num_elements"], channels=args["channels"],
        num_interactions=args["num_interactions"], r_max=args["r_max"], num_bessel=args["num_bessel"],
    )
    std, mean = compute_average_interaction_stats(train_batches)
    if args["model"] == "ScaleShiftMACE":
        model_config.update(atomic_inter_scale=std, atomic_inter_shift=mean)
    model = MODELS[args["model"]](**model_config)

    param_options = get_params_options(args, model)
    optimizer = get_optimizer(args, param_options)

    for epoch in range(args["max_num_epochs"]):
        total = 0.0
        for batch in train_batches:
            optimizer.zero_grad(set_to_none=True)
            pred = model(batch)
            loss = torch.mean((pred - batch["energy"]) ** 2)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(train_batches):.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
