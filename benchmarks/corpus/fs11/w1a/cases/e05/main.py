import torch

from hessian import GANForwardHVPOperator, lanczos_topk
from models import FeatureNet, Generator, TorchScorer, preprocess

torch.manual_seed(0)

CFG = {
    "latent_dim": 32,
    "layer_unit": (5, 8, 8),
    "epsilon": 1e-2,
    "topk": 4,
}


def build_objective(scorer):
    def objective(img):
        return -scorer.score(img)
    return objective


def main():
    G = Generator(CFG["latent_dim"]).eval()
    for p in G.parameters():
        p.requires_grad_(False)
    scorer = TorchScorer(FeatureNet(), CFG["layer_unit"])
    objective = build_objective(scorer)

    code = torch.randn(1, CFG["latent_dim"])
    op = GANForwardHVPOperator(G, code, objective, preprocess=preprocess, epsilon=CFG["epsilon"])
    evals, evecs = lanczos_topk(op, k=CFG["topk"])
    print("top eigenvalues:", [round(v, 5) for v in evals.tolist()])
    print("eigvec norm:", evecs.norm(dim=0).tolist())


if __name__ == "__main__":
    main()
