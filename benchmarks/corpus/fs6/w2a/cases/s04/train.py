import torch

from networks import Discriminator, Encoder, Generator
from training_loop_encoder import EncoderTrainer

CFG = {
    "lr_e": 1e-4,
    "lr_d": 1e-4,
    "w_feat": 0.00005,
    "w_adv": 0.1,
    "r1_gamma": 10.0,
    "iters": 4,
    "batch": 8,
}


def main():
    torch.manual_seed(0)
    G, E, D = Generator(), Encoder(), Discriminator()
    trainer = EncoderTrainer(G, E, D, CFG)
    data = torch.tanh(torch.randn(CFG["iters"], CFG["batch"], 3, 16, 16))
    for it in range(CFG["iters"]):
        loss_E, loss_D = trainer.train_step(data[it])
        print(f"iter {it}: E {loss_E:.4f} D {loss_D:.4f}")
    return trainer


if __name__ == "__main__":
    trainer = main()
