import torch


class GANForwardHVPOperator:
    def __init__(self, model, code, objective, preprocess=lambda x: x, epsilon=1e-2):
        self.model = model
        self.preprocess = preprocess
        self.objective = objective
        self.code = code.detach().clone()
        self.size = self.code.numel()
        self.epsilon = epsilon

    def zero_grad(self):
        pass

    def gradient(self, perturb_vecs):
        perturb_vecs = perturb_vecs.detach().requires_grad_(True)
        img = self.model.visualize(perturb_vecs)
        resz_img = self.preprocess(img)
        activs = self.objective(resz_img)
        ftgrad_both = torch.autograd.grad(activs, perturb_vecs, retain_graph=False,
                                          create_graph=False, only_inputs=True)[0]
        return ftgrad_both

    def apply(self, vec):
        vec = vec.view(1, -1)
        perturb_vecs = self.code + self.epsilon * torch.tensor([1.0, -1.0]).view(-1, 1) * vec
        ftgrad_both = self.gradient(perturb_vecs)
        hvp = (ftgrad_both[0:1] - ftgrad_both[1:2]) / (2 * self.epsilon)
        return hvp

    def matmat(self, mat):
        return torch.cat([self.apply(mat[:, i]) for i in range(mat.shape[1])], 0).t()


def lanczos_topk(op, k=4, n_iter=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    size = op.size
    Q = torch.linalg.qr(torch.randn(size, k, generator=g))[0]
    for _ in range(n_iter):
        Z = op.matmat(Q)
        Q = torch.linalg.qr(Z)[0]
    T = Q.t() @ op.matmat(Q)
    evals, evecs = torch.linalg.eigh((T + T.t()) / 2)
    return evals.flip(0), (Q @ evecs).flip(1)
