import torch
import torch.nn.functional as F


class WGANGP:
    def __init__(self, device):
        self.device = device
        self.sizeDecisionLayer = 1

    def getCriterion(self, input, status):
        if status:
            return -input[:, 0].sum()
        return input[:, 0].sum()


def WGANGPGradientPenalty(input, fake, discriminator, weight, backward=True):
    batchSize = input.size(0)
    alpha = torch.rand(batchSize, 1, 1, 1).expand_as(input)
    interpolates = (alpha * input + (1 - alpha) * fake).requires_grad_(True)
    decisionInterpolate = discriminator(interpolates, False)[:, 0].sum()
    gradients = torch.autograd.grad(outputs=decisionInterpolate, inputs=interpolates,
                                    create_graph=True, retain_graph=True)[0]
    gradients = gradients.view(batchSize, -1)
    gradient_penalty = (((gradients.norm(2, dim=1) - 1) ** 2) * weight).sum()
    if backward:
        gradient_penalty.backward(retain_graph=True)
    return gradient_penalty.item()


def GDPPLoss(phiFake, phiReal, backward=True):
    def compute_diversity(phi):
        phi = F.normalize(phi, p=2, dim=1)
        SB = torch.mm(phi, phi.t())
        eigVals, eigVecs = torch.linalg.eigh(SB)
        return eigVals, eigVecs

    def normalize_min_max(eigVals):
        minV, maxV = torch.min(eigVals), torch.max(eigVals)
        if abs(minV - maxV) < 1e-10:
            return eigVals
        return (eigVals - minV) / (maxV - minV)

    fakeEigVals, fakeEigVecs = compute_diversity(phiFake)
    realEigVals, realEigVecs = compute_diversity(phiReal)

    magnitudeLoss = 0.0001 * F.mse_loss(target=realEigVals, input=fakeEigVals)
    structureLoss = -torch.sum(torch.mul(fakeEigVecs, realEigVecs), 0)
    normalizedRealEigVals = normalize_min_max(realEigVals)
    weightedStructureLoss = torch.sum(torch.mul(normalizedRealEigVals, structureLoss))
    gdppLoss = magnitudeLoss + weightedStructureLoss

    if backward:
        gdppLoss.backward()
    return gdppLoss.item()
