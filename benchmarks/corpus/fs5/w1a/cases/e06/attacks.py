import torch
import torch.nn.functional as F


class Attack:
    def __init__(self, model):
        self.model = model

    def __call__(self, images, labels):
        was_training = self.model.training
        self.model.eval()
        adv = self.forward(images.clone().detach(), labels)
        self.model.train(was_training)
        return adv.detach()


class FGSM(Attack):
    def __init__(self, model, eps=8 / 255):
        super().__init__(model)
        self.eps = eps

    def forward(self, images, labels):
        images.requires_grad = True
        loss = F.cross_entropy(self.model(images), labels)
        grad = torch.autograd.grad(loss, images)[0]
        return torch.clamp(images + self.eps * grad.sign(), 0, 1)


class DeepFool(Attack):
    def __init__(self, model, steps=10, overshoot=0.02):
        super().__init__(model)
        self.steps = steps
        self.overshoot = overshoot

    def forward(self, images, labels):
        adv = []
        for b in range(images.shape[0]):
            adv.append(self._attack_one(images[b:b + 1], labels[b]))
        return torch.cat(adv, dim=0)

    def _attack_one(self, image, label):
        for _ in range(self.steps):
            image.requires_grad = True
            output = self.model(image)[0]
            if output.argmax() != label:
                break
            grads = torch.stack([
                torch.autograd.grad(output[k], image, retain_graph=True)[0][0]
                for k in range(output.shape[0])
            ])
            w = grads - grads[label]
            f = (output - output[label]).detach()
            w_norm = w.flatten(1).norm(dim=1)
            ratio = f.abs() / (w_norm + 1e-8)
            ratio[label] = float("inf")
            k = ratio.argmin()
            r = (ratio[k] + 1e-4) * w[k] / (w_norm[k] + 1e-8)
            image = torch.clamp(image + (1 + self.overshoot) * r, 0, 1)
        return image.detach()


ATTACKS = {"fgsm": FGSM, "deepfool": DeepFool}
