import torch.nn.functional as F


class FaceLoss:
    def __init__(self, face_model, model_name="arcface"):
        self.face_model = face_model
        self.model_name = model_name

    def __call__(self, input_images, gen_images):
        ref = self.face_model(input_images)
        gen = self.face_model(gen_images)
        scores = F.cosine_similarity(gen, ref, dim=-1)
        return 1.0 - scores.abs().mean()
