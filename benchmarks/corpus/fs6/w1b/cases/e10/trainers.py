import torch

TRAINERS = {}


def register(cls):
    TRAINERS[cls.__name__] = cls
    return cls


@register
class MetricLossOnly:
    def __init__(self, models, optimizers, loss_funcs, loss_weights, iterations_per_epoch):
        self.models = models
        self.optimizers = optimizers
        self.loss_funcs = loss_funcs
        self.loss_weights = loss_weights
        self.iterations_per_epoch = iterations_per_epoch
        self.losses = {}

    def compute_embeddings(self, data):
        trunk_output = self.models["trunk"](data)
        return self.models["embedder"](trunk_output)

    def calculate_loss(self, data, labels):
        embeddings = self.compute_embeddings(data)
        self.losses["metric_loss"] = self.loss_funcs["metric_loss"](embeddings, labels)

    def backward(self):
        total = sum(self.loss_weights.get(k, 1.0) * v for k, v in self.losses.items())
        total.backward()
        return total

    def train(self, loader, num_epochs):
        for m in self.models.values():
            m.train()
        for epoch in range(num_epochs):
            for it, (data, labels) in enumerate(loader):
                if it == self.iterations_per_epoch:
                    break
                for opt in self.optimizers.values():
                    opt.zero_grad()
                self.losses = {}
                self.calculate_loss(data, labels)
                total = self.backward()
                for opt in self.optimizers.values():
                    opt.step()
                print(f"epoch {epoch} iter {it} loss {total.item():.4f}")


@register
class TrainWithClassifier(MetricLossOnly):
    def calculate_loss(self, data, labels):
        super().calculate_loss(data, labels)
        logits = self.models["classifier"](self.embeddings)
        self.losses["classifier_loss"] = self.loss_funcs["classifier_loss"](logits, labels)

    def compute_embeddings(self, data):
        self.embeddings = super().compute_embeddings(data)
        return self.embeddings
