import math

import torch
import torch.nn as nn
import torch.optim as optim

import params
from models import Classifier, DomainClassifier, Extractor


def domain_constant(epoch, step, steps_per_epoch, epochs):
    p = float(step + epoch * steps_per_epoch) / (epochs * steps_per_epoch)
    return 2.0 / (1.0 + math.exp(-params.gamma * p)) - 1


def optimizer_scheduler(optimizer, p):
    for group in optimizer.param_groups:
        group["lr"] = params.lr / (1.0 + 10 * p) ** 0.75
    return optimizer


def make_domain_batch(shift, generator):
    x = torch.randn(params.batch_size, 3, params.image_size, params.image_size, generator=generator)
    y = torch.randint(0, params.num_classes, (params.batch_size,), generator=generator)
    return x * (1.0 + shift) + shift, y


def train(extractor, classifier, discriminator, class_criterion, domain_criterion, optimizer, epoch, generator):
    extractor.train()
    classifier.train()
    discriminator.train()
    for step in range(params.steps_per_epoch):
        p = float(step + epoch * params.steps_per_epoch) / (params.epochs * params.steps_per_epoch)
        constant = domain_constant(epoch, step, params.steps_per_epoch, params.epochs)
        optimizer = optimizer_scheduler(optimizer, p)

        src_x, src_y = make_domain_batch(0.0, generator)
        tgt_x, _ = make_domain_batch(0.5, generator)
        src_labels = torch.zeros(params.batch_size, dtype=torch.long)
        tgt_labels = torch.ones(params.batch_size, dtype=torch.long)

        optimizer.zero_grad()
        src_feature = extractor(src_x)
        tgt_feature = extractor(tgt_x)

        class_preds = classifier(src_feature)
        class_loss = class_criterion(class_preds, src_y)

        src_preds = discriminator(src_feature, constant)
        tgt_preds = discriminator(tgt_feature, constant)
        domain_loss = domain_criterion(src_preds, src_labels) + domain_criterion(tgt_preds, tgt_labels)

        loss = class_loss + params.theta * domain_loss
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step}: class {class_loss.item():.4f} domain {domain_loss.item():.4f}")


def main():
    torch.manual_seed(params.seed)
    generator = torch.Generator().manual_seed(params.seed)
    extractor = Extractor()
    classifier = Classifier(params.num_classes)
    discriminator = DomainClassifier()
    class_criterion = nn.CrossEntropyLoss()
    domain_criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(
        [{"params": extractor.parameters()},
         {"params": classifier.parameters()},
         {"params": discriminator.parameters()}],
        lr=params.lr, momentum=params.momentum,
    )
    for epoch in range(params.epochs):
        train(extractor, classifier, discriminator, class_criterion, domain_criterion, optimizer, epoch, generator)
    return extractor, classifier, discriminator


if __name__ == "__main__":
    extractor, classifier, discriminator = main()
