import argparse
import warnings

import compat  # noqa: F401

import lightning as L
import torch

from data import make_graph, node_loader
from gnn import NodePredictionModel

warnings.filterwarnings("ignore")


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--num-epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=50)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--max-grad-norm", type=float, default=0.1)
    return p.parse_args()


def main(args):
    L.seed_everything(0, verbose=False)
    graph = make_graph()
    model = NodePredictionModel(graph, n_feats=16, n_classes=4, lr=args.lr,
                                max_grad_norm=args.max_grad_norm)
    trainer = L.Trainer(max_epochs=args.num_epochs, accelerator="cpu", devices=1,
                        logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, node_loader(graph[0].shape[0], args.batch_size))
    with torch.no_grad():
        acc = (model(model.x, model.adj).argmax(1) == model.y).float().mean().item()
    print(f"train acc {acc:.3f}")
    return model


if __name__ == "__main__":
    model = main(parse_args())
