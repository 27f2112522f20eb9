import argparse

import torch

from cycle_gan_semantic_model import CycleGANSemanticModel


def parse_opt():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input_nc", type=int, default=3)
    parser.add_argument("--output_nc", type=int, default=3)
    parser.add_argument("--semantic_nclasses", type=int, default=4)
    parser.add_argument("--train_sem", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--lambda_A", type=float, default=10.0)
    parser.add_argument("--lambda_sem", type=float, default=1.0)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--n_iters", type=int, default=6)
    parser.add_argument("--batch_size", type=int, default=2)
    parser.add_argument("--crop_size", type=int, default=16)
    return parser.parse_args()


def make_dataset(opt, gen):
    while True:
        labels = torch.randint(0, opt.semantic_nclasses, (opt.batch_size,), generator=gen)
        A = torch.randn(opt.batch_size, opt.input_nc, opt.crop_size, opt.crop_size, generator=gen)
        A = A + labels.view(-1, 1, 1, 1).float() * 0.5
        B = torch.randn(opt.batch_size, opt.output_nc, opt.crop_size, opt.crop_size, generator=gen)
        yield {"A": A.tanh(), "B": B.tanh(), "A_label": labels}


def main():
    opt = parse_opt()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = CycleGANSemanticModel(opt)
    dataset = make_dataset(opt, gen)
    for it in range(1, opt.n_iters + 1):
        model.set_input(next(dataset))
        model.optimize_parameters()
        if it % 2 == 0:
            msg = f"iter {it}: G_A {model.loss_G_A.item():.3f} cycle {model.loss_cycle_A.item():.3f} D_B {model.loss_D_B.item():.3f}"
            if opt.train_sem:
                msg += f" sem_AB {model.loss_sem_AB.item():.3f} f_s {model.loss_f_s.item():.3f}"
            print(msg)
    return model, dataset


if __name__ == "__main__":
    model, dataset = main()
