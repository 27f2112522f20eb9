"""The attack is picked by name from a table, by an argparse default; the iterative attack sets
requires_grad on its image at the top of each step, but from the second step on the image is
the result of a clamp (a non-leaf), and setting requires_grad on it raises."""
import argparse

import torch
from torch import nn


class OneStep:
    def __init__(self, model, eps=0.03):
        self.model, self.eps = model, eps

    def run(self, images, labels):
        images = images.clone().requires_grad_(True)
        loss = nn.functional.cross_entropy(self.model(images), labels)
        grad, = torch.autograd.grad(loss, images)
        return (images + self.eps * grad.sign()).clamp(0, 1).detach()


class Iterative:
    def __init__(self, model, steps=3, alpha=0.01):
        self.model, self.steps, self.alpha = model, steps, alpha

    def run(self, images, labels):
        image = images.clone()
        for _ in range(self.steps):
            image.requires_grad = True
            loss = nn.functional.cross_entropy(self.model(image), labels)
            grad, = torch.autograd.grad(loss, image)
            image = torch.clamp(image + self.alpha * grad.sign(), 0, 1)
        return image.detach()


ATTACKS = {"one-step": OneStep, "iterative": Iterative}

parser = argparse.ArgumentParser()
parser.add_argument("--attack", default="iterative", choices=sorted(ATTACKS))
args = parser.parse_args()

torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(12, 3))
attack = ATTACKS[args.attack](model)
adversarial = attack.run(torch.rand(4, 3, 2, 2), torch.randint(0, 3, (4,)))
print(adversarial.shape)
